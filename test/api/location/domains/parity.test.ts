import { describe, expect, it } from 'vitest';
import { sourceById } from '../../../../datasets/catalogue.ts';
import { COUNTRIES } from '../../../../datasets/countries.ts';
import { ALL_FIELDS, DOMAIN_MODULES } from '../../../../api/location/domains/index.ts';
import { JOBS } from '../../../../ingest/jobs.ts';
import { TABLES } from '../../../../schemas/tables/index.ts';
import { areaCellsTable } from '../../../../schemas/tables/areas.ts';

// The domain registry against the jobs and the catalogue (issue 13, section 3): a domain reads only
// tables some job writes, and a catalogued field names tables and sources that exist.
const written = new Set<string>(JOBS.flatMap((j) => j.writes));
const isTable = (t: string) => Object.hasOwn(TABLES, t) || Object.keys(TABLES).some((a) => areaCellsTable(a) === t);

describe('domains, fields, tables and jobs agree', () => {
  it('every table a domain reads has a row schema and is written by some job', () => {
    for (const m of DOMAIN_MODULES) {
      for (const [country, tables] of Object.entries(m.tables)) {
        for (const t of tables ?? []) {
          expect(isTable(t), `${m.id} (${country}) reads ${t}: no row schema in schemas/tables/`).toBe(true);
          expect(written.has(t), `${m.id} (${country}) reads ${t}: no job writes it`).toBe(true);
        }
      }
    }
  });

  it('a domain computed in a country reads tables of that country only through what it declares', () => {
    for (const m of DOMAIN_MODULES) {
      for (const country of Object.keys(m.resolvers)) {
        expect(COUNTRIES.includes(country as never), `${m.id}: resolver for unknown country ${country}`).toBe(true);
        expect((m.tables as Record<string, string[] | undefined>)[country]?.length ?? 0, `${m.id} computed in ${country} declares no table`).toBeGreaterThan(0);
      }
    }
  });

  it('every field backed by a source names sources that exist and a table a job reading them writes', () => {
    const backed = ALL_FIELDS.filter((f) => f.sources.length > 0);
    expect(backed.length).toBeGreaterThan(10);
    for (const f of backed) {
      for (const id of f.sources) expect(sourceById(id), `${f.id}: unknown source ${id}`).toBeDefined();
      expect(f.table, `${f.id}: a field with sources names its table`).not.toBeNull();
      expect(isTable(f.table!), `${f.id}: table ${f.table} has no row schema`).toBe(true);
      const writers = JOBS.filter((j) => j.writes.includes(f.table as never) && j.sources.some((s) => f.sources.includes(s.id)));
      expect(writers.map((j) => j.id), `${f.id}: no job reads ${f.sources.join(', ')} into ${f.table}`).not.toEqual([]);
    }
  });

  it('a field backed by sources named at ingest (GTFS feeds) names a table the job naming them writes', () => {
    const prefixed = ALL_FIELDS.filter((f) => f.sourcePrefixes?.length);
    expect(prefixed.length).toBeGreaterThan(0);
    for (const f of prefixed) {
      expect(f.table, f.id).not.toBeNull();
      for (const p of f.sourcePrefixes!) expect(p, f.id).toMatch(/^(fr|ca|be)\.gtfs$/);
      expect(JOBS.find((j) => j.id === 'gtfs')!.writes, f.id).toContain(f.table);
    }
  });

  it('a field without a source yet is one the catalog says is not ingested', () => {
    // Pending fields (rents, census...) document what is to come; they must never look served.
    for (const f of ALL_FIELDS.filter((x) => x.sources.length === 0 && !x.sourcePrefixes?.length && x.table !== null)) {
      expect(f.definition.en, f.id).toMatch(/not ingested yet|waits for/);
    }
  });
});
