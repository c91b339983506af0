import { describe, expect, it } from 'vitest';
import { SOURCES } from '../../datasets/catalogue.ts';
import { JOBS } from '../../ingest/jobs.ts';
import { TABLES, TABLE_NAMES } from '../../schemas/tables/index.ts';

// What the jobs declare against what the catalogue and the table schemas say (issue 13, section 3).
describe('jobs, sources and tables agree', () => {
  it('every table a job reads or writes has a row schema in schemas/tables/', () => {
    for (const job of JOBS) {
      for (const table of [...job.reads, ...job.writes]) expect(Object.hasOwn(TABLES, table), `${job.id}: ${table}`).toBe(true);
    }
  });

  it('every table a job reads is written by some job', () => {
    const written = new Set(JOBS.flatMap((j) => j.writes));
    for (const job of JOBS) for (const table of job.reads) expect(written.has(table), `${job.id} reads ${table}`).toBe(true);
  });

  it('every source of datasets/ is read by some job, and only by jobs that write the tables it says it feeds', () => {
    for (const source of SOURCES) {
      const readers = JOBS.filter((j) => j.sources.includes(source));
      expect(readers.map((j) => j.id), source.id).not.toEqual([]);
      const written = new Set(readers.flatMap((j) => j.writes));
      expect(source.tables.length, source.id).toBeGreaterThan(0);
      for (const table of source.tables) expect(written.has(table), `${source.id} feeds ${table}`).toBe(true);
    }
  });

  it('every source a job reads is in the catalogue', () => {
    for (const job of JOBS) for (const source of job.sources) expect(SOURCES.includes(source), `${job.id}: ${source.id}`).toBe(true);
  });

  it('job ids are unique, and every table schema is written by a job', () => {
    expect(new Set(JOBS.map((j) => j.id)).size).toBe(JOBS.length);
    const written = new Set(JOBS.flatMap((j) => j.writes));
    expect(TABLE_NAMES.filter((t) => !written.has(t))).toEqual([]);
  });
});
