import { statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { dvfRawSource, dvfSource } from '../../datasets/fr/dvf/source.ts';
import { REPO_ROOT, defineJob } from '../core/define-job.ts';
import { download } from '../core/download.ts';
import { UsageError, option } from '../core/options.ts';
import { PUBLISHED_ON_HINT, publishedOnOption, requirePublishedOn } from '../core/published-on.ts';
import { dvfFiles, ingestDvf } from './dvf.ts';

const PART = /^(\d{4})\/(\d{2}|2[AB]|97[1-5])$/;

export const dvfJob = defineJob({
  id: 'fr.dvf',
  summary: "Property sales (DVF): Etalab's geolocated <year>/departements/<dep>.csv (or full.csv) and the DGFiP's ValeursFoncieres text files -> fr/sales (one partition per year and department of the deeds), fr/market_indicators",
  sources: [dvfSource, dvfRawSource],
  options: z.object({
    input: option.path('<file | folder of DVF files>').optional(),
    download: option.flag(),
    part: option.text('<year>/<department>').optional(),
    url: option.text('<mirror of the csv folder>').optional(),
    // The market indicators' updated_on: the DVF files' publication date (with --download, the server's Last-Modified unless given).
    'published-on': publishedOnOption.optional(),
  }).superRefine((o, c) => {
    if (o.download && !PART.test(o.part ?? '')) c.addIssue({ code: 'custom', message: '--download needs --part <year>/<department>, e.g. --part 2024/33 (Alsace-Moselle and Mayotte are not published)' });
    else if (!o.download && !o.input) c.addIssue({ code: 'custom', message: '--input is required' });
    else if (!o.download && !o['published-on']) c.addIssue({ code: 'custom', message: `--input needs --published-on: ${PUBLISHED_ON_HINT}` });
  }),
  // Sales get the IRIS of their position from the zone cover, and a position from the BAN addresses when published without one.
  reads: ['zones', 'zone_cells', 'addresses'],
  writes: ['sales', 'market_indicators'],
  samples: [['--input', join(REPO_ROOT, 'datasets/fr/dvf'), '--published-on', '2026-11-22']],
  async run(ctx, o) {
    if (o.download) {
      const [, year, department] = PART.exec(o.part!)!;
      const url = (o.url ? `${o.url.replace(/\/$/, '')}/{year}/departements/{department}.csv.gz` : dvfSource.download_url!).replace('{year}', year!).replace('{department}', department!);
      ctx.log(`downloading ${url}`);
      const d = await download(url, join(ctx.dataDir, 'downloads', 'fr', 'dvf', year!, 'departements'), fetch, { log: ctx.log });
      const input = { path: d.path, sha256: d.sha256, downloadedFrom: d.url, publishedAt: o['published-on'] ?? d.publishedAt };
      requirePublishedOn('fr.dvf (the server sent no Last-Modified)', input);
      return ingestDvf(ctx, [input]);
    }
    const input = o.input!;
    const files = statSync(input).isDirectory() ? dvfFiles(input) : [input];
    if (files.length === 0) throw new UsageError(`no DVF file (.csv, .txt) in ${input}`);
    return ingestDvf(ctx, files.map((path) => ({ path, publishedAt: o['published-on'] })));
  },
});
