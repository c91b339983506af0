import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, type Job } from '../../ingest/core/define-job.ts';
import { UsageError, commandOptions, option } from '../../ingest/core/options.ts';
import { JOBS, REPO_ROOT, runOrder } from '../../ingest/jobs.ts';
import { silentContext } from '../helpers/fixture-data.ts';
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

describe('publication dates of the jobs whose values are served with updated_on', () => {
  const dated = JOBS.filter((j) => j.writes.includes('zone_values') || j.writes.includes('market_indicators'));
  const git = (args: string[]) => { try { return execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim(); } catch { return null; } };
  const shallow = git(['rev-parse', '--is-shallow-repository']);

  it('take --published-on, and every sample of them gives it', () => {
    expect(dated.map((j) => j.id).sort()).toEqual(['be.census', 'be.statbel-income', 'be.statbel-prices', 'ca.assessment', 'ca.census', 'ca.cmhc', 'fr.census', 'fr.dvf', 'fr.filosofi', 'fr.housing-zones', 'fr.radon', 'fr.rents', 'fr.risk-communes', 'fr.seismic']);
    for (const j of dated) {
      expect(j.usage, j.id).toMatch(/--published-on <YYYY-MM-DD>/);
      // fr.risk-communes writes zone values with --gaspar only (its brush-clearing zones are areas).
      for (const argv of j.samples.filter((a) => j.id !== 'fr.risk-communes' || a.includes('--gaspar'))) expect(argv, j.id).toContain('--published-on');
    }
  });

  it('refuse to run without it, before reading anything, telling the operator where to find it', () => {
    const message = (id: string, argv: string[]) => { try { void JOBS.find((j) => j.id === id)!.run(silentContext('/nonexistent'), argv); return null; } catch (e) { expect(e, id).toBeInstanceOf(UsageError); return (e as Error).message; } };
    const sample = join(REPO_ROOT, 'datasets/fr/radon/radon.csv');
    expect(message('fr.radon', ['--input', sample])).toBe("--published-on YYYY-MM-DD is required: the date the producer's page gives for this edition (served as updated_on, never the import date)");
    expect(message('fr.radon', ['--input', sample, '--published-on', '2026-02-30'])).toBe('--published-on is not a real date');
    expect(message('fr.radon', ['--input', sample, '--published-on', '30/01/2026'])).toMatch(/^--published-on must be a date YYYY-MM-DD/);
    expect(message('fr.risk-communes', ['--gaspar', join(REPO_ROOT, 'datasets/fr/gaspar/risq_gaspar.csv')])).toMatch(/^--gaspar needs --published-on: give --published-on YYYY-MM-DD, the date the producer's page gives/);
    expect(message('fr.dvf', ['--input', join(REPO_ROOT, 'datasets/fr/dvf')])).toMatch(/^--input needs --published-on: give --published-on YYYY-MM-DD/);
  });

  it.skipIf(shallow !== 'false')("date each sample by the first commit of its files: the samples are ours, not the producers'", () => {
    const firstCommit = (file: string) => git(['log', '--diff-filter=A', '--format=%as', '--', file])?.split('\n').at(-1) ?? '';
    const dataFiles = (path: string): string[] => statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: 'utf8' }).map((f) => join(path, f)).filter((f) => statSync(f).isFile() && !/(README\.md|\.ts)$/.test(f))
      : [path];
    const checked: string[] = [];
    for (const j of dated) {
      for (const argv of j.samples) {
        const at = argv.indexOf('--published-on');
        if (at < 0) continue;
        const inputs = argv.filter((a) => a.startsWith(join(REPO_ROOT, 'datasets'))).flatMap(dataFiles);
        expect(inputs.length, `${j.id} ${argv.join(' ')}`).toBeGreaterThan(0);
        for (const f of inputs) {
          expect(firstCommit(f), `${j.id}: ${f}`).toBe(argv[at + 1]);
          checked.push(f);
        }
      }
    }
    expect(checked.length).toBeGreaterThan(25);
  });
});
