import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { JOBS, UsageError, jobById, runSamples } from './jobs.ts';
import type { JobContext, PartitionSummary } from './core/job.ts';
import { migrateLegacyLayout } from './core/migrate-layout.ts';
import { migrateListColumns } from './core/migrate-columns.ts';
import { COUNTRIES } from '../datasets/countries.ts';

const USAGE = `Usage: npm run ingest -- <command>

  list                         jobs, the sources they read, the tables they read and write
  samples [--if-empty] [--data-dir DIR]
                               every job on the committed samples under datasets/
                               (--if-empty: only when DATA_DIR holds no table yet)
  <job> --input <file|folder> [--data-dir DIR] [--max-reject-share 0.01]

Jobs:
${JOBS.map((j) => `  ${j.usage}`).join('\n')}

DATA_DIR (default ./data) is where data/tables/<table>/country=<cc>/*.parquet and data/<cc>/manifest.json
are written; tables of the earlier layout (data/<cc>/<table>/) are moved there first.`;

/** Pulls the options common to every job out of argv. */
function common(argv: string[]): { rest: string[]; dataDir: string; maxRejectShare: number } {
  const rest: string[] = [];
  let dataDir = process.env.DATA_DIR ?? './data';
  let maxRejectShare = 0.01;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--data-dir') dataDir = argv[++i] ?? '';
    else if (a.startsWith('--data-dir=')) dataDir = a.slice(11);
    else if (a === '--max-reject-share' || a.startsWith('--max-reject-share=')) {
      const v = a.includes('=') ? a.split('=')[1]! : argv[++i] ?? '';
      maxRejectShare = Number(v);
      if (!(maxRejectShare >= 0 && maxRejectShare <= 1)) throw new UsageError('--max-reject-share must be between 0 and 1');
    } else rest.push(a);
  }
  if (!dataDir) throw new UsageError('--data-dir needs a folder');
  return { rest, dataDir: resolve(dataDir), maxRejectShare };
}

function summary(parts: PartitionSummary[], seconds: number): string {
  const lines = parts.map((p) => `  ${p.table}/${p.partition}: ${p.rows} rows, ${p.rejects} rejected${p.rejectsFile ? ` (${p.rejectsFile})` : ''}`);
  return `${lines.join('\n')}\ndone in ${seconds.toFixed(1)} s`;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...tail] = argv;
  if (!command || command === '--help' || command === 'help') { console.log(USAGE); return command ? 0 : 2; }
  if (command === 'list') {
    for (const j of JOBS) {
      console.log(`${j.id}\n  ${j.summary}\n  usage: npm run ingest -- ${j.usage}\n  reads: ${j.reads.join(', ') || 'none'}; writes: ${j.writes.join(', ')}`);
      for (const s of j.sources) console.log(`  source ${s.id}: ${s.name}, ${s.producer}, ${s.licence}\n    ${s.download_url ?? s.url}`);
    }
    return 0;
  }
  const { rest, dataDir, maxRejectShare } = common(tail);
  const ctx: JobContext = { dataDir, maxRejectShare, now: () => new Date(), log: (l) => console.error(l) };
  const started = Date.now();
  // Tables of the earlier layout (data/<cc>/<table>/) move to data/tables/ first, so that every
  // command, and `npm start` through `samples --if-empty`, finds one layout.
  await migrateLegacyLayout(dataDir, COUNTRIES, ctx.log);
  // Then the files of today's layout written before a column became a list (addresses.parcels).
  await migrateListColumns(dataDir, COUNTRIES, ctx.log);
  if (command === 'samples') {
    const ifEmpty = rest.includes('--if-empty');
    const unknown = rest.filter((a) => a !== '--if-empty');
    if (unknown.length > 0) throw new UsageError(`unknown option ${unknown[0]} for samples`);
    // `npm start` ingests the samples only on a data folder that holds no table yet.
    if (ifEmpty && existsSync(join(dataDir, 'fr', 'manifest.json'))) {
      console.error(`data found in ${dataDir}; samples not ingested again`);
      return 0;
    }
    console.log(summary(await runSamples(ctx), (Date.now() - started) / 1000));
    return 0;
  }
  const job = jobById(command);
  if (!job) throw new UsageError(`unknown job ${command}; run 'npm run ingest -- list'`);
  console.log(summary(await job.run(ctx, rest), (Date.now() - started) / 1000));
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    if (e instanceof UsageError) { console.error(`${e.message}\n\n${USAGE}`); process.exit(2); }
    console.error(`ingest failed: ${(e as Error).message}`);
    process.exit(1);
  },
);
