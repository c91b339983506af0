import { basename } from 'node:path';
import { z } from 'zod';
import { UsageError } from './options.ts';

/** What the operator reads when the producer's publication date of an edition is not known. */
export const PUBLISHED_ON_HINT = "give --published-on YYYY-MM-DD, the date the producer's page gives for this edition (served as updated_on, never the import date)";

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A calendar date (2026-02-30 is not one, though Date.parse takes it for 2 March). */
const realDate = (d: string) => { const t = Date.parse(`${d}T00:00:00Z`); return !Number.isNaN(t) && new Date(t).toISOString().slice(0, 10) === d; };

/**
 * `--published-on YYYY-MM-DD`: the producer's publication date of an edition, served as
 * Measure.updated_on. Required by the zone-values jobs: none of the files they read states its
 * own date.
 */
export const publishedOnOption = z.string({ error: (iss) => (iss.input === undefined ? "--published-on YYYY-MM-DD is required: the date the producer's page gives for this edition (served as updated_on, never the import date)" : '--published-on must be a date YYYY-MM-DD') })
  .regex(DATE, { error: "--published-on must be a date YYYY-MM-DD (the producer's publication date of the edition)" })
  .refine(realDate, { error: '--published-on is not a real date' }).describe('<YYYY-MM-DD>');

/**
 * The producer's publication date of an input (JobInput.publishedAt: the operator's
 * --published-on, else the Last-Modified of its download), checked before anything is written:
 * without one a job writing values served with updated_on fails, naming the file and the option.
 */
export function requirePublishedOn(job: string, input: { path: string; publishedAt?: string | null }): string {
  const d = input.publishedAt ?? null;
  if (d === null) throw new UsageError(`${job}: the producer's publication date of ${basename(input.path)} is not known; ${PUBLISHED_ON_HINT}. Nothing was written.`);
  if (!DATE.test(d) || !realDate(d)) throw new UsageError(`${job}: the publication date of ${basename(input.path)} (${d}) is not a date YYYY-MM-DD. Nothing was written.`);
  return d;
}
