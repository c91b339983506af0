import { join } from 'node:path';
import { z } from 'zod';
import { bdnbSource, rnbSource } from '../../datasets/fr/buildings/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { option } from '../core/options.ts';
import { ingestBuildings } from './buildings.ts';

const sample = (dep: string) => ['--rnb', join(REPO_ROOT, `datasets/fr/buildings/RNB_${dep}.csv`), '--bdnb', join(REPO_ROOT, `datasets/fr/buildings/bdnb_batiment_groupe_compile_${dep}.csv`),
  '--bdnb-owners', join(REPO_ROOT, `datasets/fr/buildings/bdnb_proprietaire_${dep}.csv`), '--bdnb-owner-links', join(REPO_ROOT, `datasets/fr/buildings/bdnb_rel_batiment_groupe_proprietaire_${dep}.csv`)];

export const buildingsJob = defineJob({
  id: 'fr.buildings',
  summary: "RNB departmental export (RNB_<dep>.csv) joined with the BDNB open export (batiment_groupe_compile, and optionally its proprietaire and rel_batiment_groupe_proprietaire tables: legal owners) by RNB id -> fr/buildings (footprints, areas kind, id bld_), fr/building_links (address, parcel), fr/id_registry (bld); partition rnb-<department>",
  sources: [rnbSource, bdnbSource],
  options: z.object({
    rnb: option.path('<RNB_<dep>.csv>'), bdnb: option.path('<batiment_groupe_compile_<dep>.csv>').optional(),
    'bdnb-owners': option.path('<proprietaire.csv>').optional(), 'bdnb-owner-links': option.path('<rel_batiment_groupe_proprietaire.csv>').optional(),
  }).superRefine((o, c) => {
    // The owner tables come from the same BDNB export as the compiled groups they are joined to.
    if ((o['bdnb-owners'] === undefined) !== (o['bdnb-owner-links'] === undefined) || (o['bdnb-owners'] !== undefined && o.bdnb === undefined)) {
      c.addIssue({ code: 'custom', message: '--bdnb-owners and --bdnb-owner-links go together, with --bdnb' });
    }
  }),
  reads: [],
  writes: ['buildings', 'buildings_cells', 'building_links', 'id_registry', 'id_merges'],
  samples: [sample('75'), sample('33')],
  run: (ctx, o) => ingestBuildings(ctx, {
    rnb: { path: o.rnb }, bdnb: o.bdnb ? { path: o.bdnb } : null,
    owners: o['bdnb-owners'] && o['bdnb-owner-links'] ? { owners: { path: o['bdnb-owners'] }, links: { path: o['bdnb-owner-links'] } } : null,
  }),
});
