import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { cadastreSource } from '../../datasets/fr/cadastre/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { UsageError, option } from '../core/options.ts';
import { ingestCadastreFiles } from './cadastre.ts';

const PARCEL_FILE = /^cadastre-(.+)-parcelles\.json(\.gz)?$/i;

/** The parcel files of a folder (Etalab's names), or the one file given. */
export function cadastreFiles(input: string): string[] {
  if (!statSync(input).isDirectory()) return [input];
  const files = readdirSync(input).filter((f) => PARCEL_FILE.test(f)).sort();
  if (files.length === 0) throw new UsageError(`no cadastre-<insee>-parcelles.json[.gz] file in ${input}`);
  // The same file twice (gzipped and not) would fail on its second commune, after the first was published.
  const byName = new Map<string, string>();
  for (const f of files) {
    const stem = PARCEL_FILE.exec(f)![1]!.toLowerCase();
    if (byName.has(stem)) throw new UsageError(`${byName.get(stem)} and ${f} in ${input} are the same commune file: keep one`);
    byName.set(stem, f);
  }
  return files.map((f) => join(input, f));
}

export const cadastreJob = defineJob({
  id: 'fr.cadastre',
  summary: "Etalab's cadastre parcels per commune (cadastre-<insee>-parcelles.json[.gz], a file or a folder of them): id, reference, contenance -> fr/parcels (areas, partition cadastre-<commune>)",
  sources: [cadastreSource],
  options: z.object({ input: option.path('<cadastre-<insee>-parcelles.json[.gz] | folder>') }),
  reads: [],
  writes: ['parcels', 'parcels_cells'],
  // The six sample communes (75103, 75104, 75111, 75112, 75113, 33001) in one run.
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/cadastre')]],
  run: (ctx, o) => ingestCadastreFiles(ctx, cadastreFiles(o.input).map((path) => ({ path }))),
});
