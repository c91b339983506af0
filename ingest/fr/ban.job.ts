import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { banSource } from '../../datasets/fr/ban/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { download } from '../core/download.ts';
import type { PartitionSummary } from '../core/job.ts';
import { UsageError, option } from '../core/options.ts';
import { ingestBanFile } from './ban.ts';

const DEPARTMENT = /^(\d{2}|2[AB]|97[1-6])$/;

function banFiles(input: string): string[] {
  if (!statSync(input).isDirectory()) return [input];
  const files = readdirSync(input).filter((f) => /^adresses-.+\.csv(\.gz)?$/i.test(f)).sort().map((f) => join(input, f));
  if (files.length === 0) throw new UsageError(`no adresses-XX.csv file in ${input}`);
  return files;
}

export const banJob = defineJob({
  id: 'fr.ban',
  summary: 'French national address file (BAN), adresses-XX.csv per department -> fr/addresses (one partition per department of the rows)',
  sources: [banSource],
  options: z.object({
    input: option.path('<adresses-XX.csv[.gz] | folder>').optional(),
    download: option.flag(),
    part: option.text('<department>').optional(),
    // --url names a mirror of the producer's folder (same file names).
    url: option.text('<mirror folder>').optional(),
  }).superRefine((o, c) => {
    if (o.download && !(o.part && DEPARTMENT.test(o.part))) c.addIssue({ code: 'custom', message: '--download needs --part <department code>, e.g. --part 75' });
    else if (!o.download && !o.input) c.addIssue({ code: 'custom', message: '--input is required' });
  }),
  reads: [],
  writes: ['addresses'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/ban')]],
  async run(ctx, o) {
    if (o.download) {
      const url = (o.url ? `${o.url.replace(/\/$/, '')}/adresses-{part}.csv.gz` : banSource.download_url!).replace('{part}', o.part!);
      ctx.log(`downloading ${url}`);
      const d = await download(url, join(ctx.dataDir, 'downloads', 'fr'), fetch, { log: ctx.log });
      return ingestBanFile(ctx, { path: d.path, sha256: d.sha256, downloadedFrom: d.url, publishedAt: d.publishedAt });
    }
    const out: PartitionSummary[] = [];
    for (const file of banFiles(o.input!)) out.push(...await ingestBanFile(ctx, { path: file }));
    return out;
  },
});
