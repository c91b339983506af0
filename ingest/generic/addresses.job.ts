import { z } from 'zod';
import { Country } from '../../schemas/common.ts';
import { defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestGenericAddresses } from './addresses.ts';

const column = () => option.text('C').optional();

export const genericAddressesJob = defineJob({
  id: 'addresses',
  summary: 'Address points of any producer (CSV, columns named as options, any separator, encoding and CRS) -> <country>/addresses (partition: --partition, else the file name)',
  sources: [],
  options: z.object({
    country: option.oneOf('country', Country),
    input: option.path('FILE'),
    'locality-column': option.text('C'),
    'address-column': column(), 'number-column': column(), 'suffix-column': column(), 'street-column': column(),
    'lng-column': column(), 'lat-column': column(), 'x-column': column(), 'y-column': column(),
    crs: option.text('EPSG:NNNN').optional(),
    'id-column': column(), 'postcode-column': column(), 'locality-code-column': column(),
    encoding: option.text('E').optional(), separator: option.text('S').optional(), partition: option.text('NAME').optional(),
  }).superRefine((o, c) => {
    if (!o['address-column'] && !o['street-column']) c.addIssue({ code: 'custom', message: '--address-column or --street-column is required' });
    else if (!(o['lng-column'] && o['lat-column']) && !(o['x-column'] && o['y-column'] && o.crs)) c.addIssue({ code: 'custom', message: '--lng-column and --lat-column, or --x-column, --y-column and --crs, are required' });
  }),
  reads: [],
  writes: ['addresses'],
  samples: [],
  run: (ctx, o) => ingestGenericAddresses(ctx, {
    country: o.country, input: o.input, crs: o.crs, encoding: o.encoding, separator: o.separator, partition: o.partition,
    columns: {
      id: o['id-column'], address: o['address-column'], number: o['number-column'], suffix: o['suffix-column'], street: o['street-column'], postcode: o['postcode-column'],
      locality: o['locality-column'], localityCode: o['locality-code-column'], lng: o['lng-column'], lat: o['lat-column'], x: o['x-column'], y: o['y-column'],
    },
  }),
});
