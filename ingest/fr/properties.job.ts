import { z } from 'zod';
import { propertiesSource } from '../../datasets/fr/properties/source.ts';
import { defineJob } from '../core/define-job.ts';
import { buildProperties } from './properties.ts';

export const propertiesJob = defineJob({
  id: 'fr.properties',
  summary: 'Properties (flats by their lots, houses by their parcels, dwellings named by a diagnosis) and their events, sure or probable, from fr/sales, fr/diagnoses and fr/building_links -> fr/properties, fr/property_events (partition per department), fr/id_registry (prp, evt)',
  sources: [propertiesSource],
  // Comma-separated department codes: their partitions only, built from their rows (default: every department).
  options: z.object({ departments: z.string().regex(/^(\d{2,3}|2A|2B)(,(\d{2,3}|2A|2B))*$/, { error: '--departments must be department codes separated by commas, e.g. 01,69,2A' }).describe('<01,69,2A>').optional() }),
  reads: ['sales', 'diagnoses', 'building_links'],
  writes: ['properties', 'property_events', 'id_registry', 'id_merges'],
  samples: [[]],
  run: (ctx, o) => buildProperties(ctx, o.departments ? { departments: o.departments.split(',') } : {}),
});
