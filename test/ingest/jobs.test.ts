import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type Job } from '../../ingest/core/define-job.ts';
import { UsageError, commandOptions, option } from '../../ingest/core/options.ts';
import { JOBS, runOrder } from '../../ingest/jobs.ts';
import type { TableName } from '../../schemas/tables/index.ts';
import { Country } from '../../schemas/common.ts';

function job(id: string, reads: TableName[], writes: TableName[]): Job {
  return defineJob({ id, summary: id, sources: [], options: z.object({}), reads, writes, samples: [], run: async () => [] });
}
const ids = (jobs: Job[]) => jobs.map((j) => j.id);

describe('the order of the jobs', () => {
  it('runs every job after the jobs writing what it reads, keeping the list order otherwise', () => {
    const sales = job('sales', ['zones', 'addresses'], ['sales']);
    const addresses = job('addresses', [], ['addresses']);
    const roll = job('roll', ['addresses'], ['addresses']);
    const zones = job('zones', [], ['zones']);
    const other = job('other', [], ['market_indicators']);
    expect(ids(runOrder([sales, roll, addresses, zones, other]))).toEqual(['addresses', 'roll', 'zones', 'sales', 'other']);
  });

  it('refuses a cycle, naming the jobs in it', () => {
    expect(() => runOrder([job('a', ['zones'], ['sales']), job('b', ['sales'], ['zones']), job('c', [], ['addresses'])]))
      .toThrow(/cycle.*a \(reads zones; writes sales\); b \(reads sales; writes zones\)/);
  });

  it('ingests the samples zones and addresses first, sales after them', () => {
    const order = ids(runOrder(JOBS));
    expect(order.indexOf('fr.dvf')).toBeGreaterThan(Math.max(order.indexOf('fr.zones'), order.indexOf('fr.ban')));
    expect(order.indexOf('ca.montreal-roll')).toBeGreaterThan(order.indexOf('ca.adresses-quebec'));
  });
});

describe('options from one zod schema', () => {
  const options = commandOptions(z.object({
    country: option.oneOf('country', Country),
    input: option.text('FILE'),
    'code-property': option.text('P').optional(),
    verbose: option.flag(),
  }).superRefine((o, c) => { if (o.verbose && !o['code-property']) c.addIssue({ code: 'custom', message: '--verbose needs --code-property' }); }));

  it('derives the usage line, required options bare and the others in brackets', () => {
    expect(options.usage).toBe('--country <fr|ca|be> --input FILE [--code-property P] [--verbose]');
  });

  it('parses kebab-case options into a typed object', () => {
    const o = options.parse(['--country', 'be', '--input', 'x.csv', '--code-property', 'CODE', '--verbose']);
    expect(o).toEqual({ country: 'be', input: 'x.csv', 'code-property': 'CODE', verbose: true });
  });

  it('answers every mistake with a UsageError naming the option', () => {
    const message = (argv: string[]) => { try { options.parse(argv); return null; } catch (e) { expect(e).toBeInstanceOf(UsageError); return (e as Error).message; } };
    expect(message(['--country', 'xx', '--input', 'f'])).toBe('--country must be one of fr, ca, be');
    expect(message(['--country', 'fr'])).toBe('--input is required');
    expect(message(['--country', 'fr', '--input', 'f', '--verbose'])).toBe('--verbose needs --code-property');
    expect(message(['--country', 'fr', '--input', 'f', '--colour', 'red'])).toMatch(/Unknown option '--colour'/);
    expect(message(['--country', 'fr', '--input', 'f', 'extra'])).toMatch(/positional/);
  });

  it('checks that a path option exists', () => {
    const paths = commandOptions(z.object({ input: option.path('FILE') }));
    expect(() => paths.parse(['--input', '/no/such/file.csv'])).toThrow('input not found: /no/such/file.csv');
  });
});
