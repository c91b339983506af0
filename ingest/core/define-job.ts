import { resolve } from 'node:path';
import type { z } from 'zod';
import type { Source } from '../../datasets/source.ts';
import type { TableName } from '../../schemas/tables/index.ts';
import type { JobContext, PartitionSummary } from './job.ts';
import { withManifestBatch } from './manifest.ts';
import { commandOptions, type OptionSchema } from './options.ts';

/** The repository root: committed samples are named from it. */
export const REPO_ROOT = resolve(import.meta.dirname, '../..');

/** A job as written beside its code (ingest/<country>/<name>.job.ts). */
export interface JobDefinition<S extends OptionSchema> {
  id: string;
  summary: string;
  sources: Source[];
  /** Its command-line options (see options.ts): parsing and usage come from it. */
  options: S;
  /** Tables it reads (of any country): jobs writing them run before it in `samples`. */
  reads: TableName[];
  /** Tables it writes. */
  writes: TableName[];
  /** Argument lists of the committed samples (under datasets/). */
  samples: string[][];
  run(ctx: JobContext, options: z.output<S>): Promise<PartitionSummary[]>;
}

/** A job as the runner sees it: options still as command-line arguments. */
export interface Job {
  id: string;
  summary: string;
  sources: Source[];
  reads: readonly TableName[];
  writes: readonly TableName[];
  samples: string[][];
  /** `<id> <options>`, derived from the option schema. */
  usage: string;
  /**
   * Runs the job with its command-line arguments (after the job name); the manifest changes of
   * the run are written once at its end (withManifestBatch, ingest/core/manifest.ts).
   */
  run(ctx: JobContext, argv: string[]): Promise<PartitionSummary[]>;
}

export function defineJob<S extends OptionSchema>(def: JobDefinition<S>): Job {
  const options = commandOptions(def.options);
  return {
    id: def.id, summary: def.summary, sources: def.sources, reads: def.reads, writes: def.writes, samples: def.samples,
    usage: `${def.id} ${options.usage}`,
    run: (ctx, argv) => {
      const parsed = options.parse(argv);
      return withManifestBatch(ctx.dataDir, () => def.run(ctx, parsed));
    },
  };
}
