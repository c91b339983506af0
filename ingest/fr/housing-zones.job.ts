import { join } from 'node:path';
import { z } from 'zod';
import { abcZoningSource, rentControlSource, tlvZoningSource } from '../../datasets/fr/housing-zones/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { publishedOnOption } from '../core/published-on.ts';
import { ingestAbcZoning, ingestRentControl, ingestTlvZoning } from './housing-zones.ts';

const SAMPLE = join(REPO_ROOT, 'datasets/fr/housing-zones');

export const housingZonesJob = defineJob({
  id: 'fr.housing-zones',
  summary: "Housing regulation by commune: the ministry's ABC and TLV (tense zone) lists, the rent-control communes -> fr/zone_values (one partition per list)",
  sources: [abcZoningSource, tlvZoningSource, rentControlSource],
  options: z.object({
    abc: option.path('<liste-ensemble-des-communes-zonage-abc.csv>').optional(),
    'abc-column': option.text('<Zonage ABC ... column>').optional(),
    tlv: option.path('<zonage-tlv.csv>').optional(),
    'tlv-column': option.text('<Zonage TLV ... column>').optional(),
    'rent-control': option.path('<encadrement-des-loyers.csv>').optional(),
    'published-on': publishedOnOption,
  }),
  reads: [],
  writes: ['zone_values'],
  samples: [['--abc', join(SAMPLE, 'liste-ensemble-des-communes-zonage-abc.csv'), '--tlv', join(SAMPLE, 'zonage-tlv.csv'), '--rent-control', join(SAMPLE, 'encadrement-des-loyers.csv'), '--published-on', '2026-11-24']],
  async run(ctx, o) {
    if (!o.abc && !o.tlv && !o['rent-control']) throw new UsageError('give at least one list: --abc, --tlv or --rent-control');
    const publishedAt = o['published-on'];
    const out: PartitionSummary[] = [];
    if (o.abc) out.push(...await ingestAbcZoning(ctx, { path: o.abc, column: o['abc-column'], publishedAt }));
    if (o.tlv) out.push(...await ingestTlvZoning(ctx, { path: o.tlv, column: o['tlv-column'], publishedAt }));
    if (o['rent-control']) out.push(...await ingestRentControl(ctx, { path: o['rent-control'], publishedAt }));
    return out;
  },
});
