import { z } from 'zod';

/** `--published-on YYYY-MM-DD`: the producer's publication date of an edition, served as Measure.updated_on. */
export const publishedOnOption = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: "--published-on must be a date YYYY-MM-DD (the producer's publication date of the edition)" })
  .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)), { error: '--published-on is not a real date' }).describe('<YYYY-MM-DD>');
