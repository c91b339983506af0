import { execFile, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BAN_HEADER, BAN_ROWS, banLine } from '../helpers/fixture-data.ts';

const ROOT = join(import.meta.dirname, '../..');
function cli(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, ['--import', 'tsx', 'ingest/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, ...env } });
}

/** The same, without blocking: independent runs go side by side. */
function cliAsync(args: string[]): Promise<{ status: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', 'ingest/cli.ts', ...args], { cwd: ROOT, encoding: 'utf8' }, (err, _stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stderr }));
  });
}

describe('npm run ingest', () => {
  it('lists the jobs with their sources and download addresses', () => {
    const r = cli(['list']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('fr.ban');
    expect(r.stdout).toContain('fr.zones');
    expect(r.stdout).toContain('zones --country <fr|ca|be> --level <level> --input FILE --code-property P');
    expect(r.stdout).toContain('adresse.data.gouv.fr');
    expect(r.stdout).toContain('Licence Ouverte');
    expect(r.stdout).toContain('reads: zones, zone_cells, addresses; writes: sales, market_indicators');
  });

  it('answers usage errors with the usage and exit code 2', async () => {
    const cases = [['fr.nothing'], ['fr.ban'], ['fr.ban', '--input', '/no/such/file.csv'], ['zones', '--country', 'xx'], ['fr.ban', '--colour', 'red'], ['samples', '--max-reject-share', '2']];
    // Usage errors touch no data, so the runs go side by side.
    const runs = await Promise.all(cases.map((args) => cliAsync(args)));
    runs.forEach((r, i) => {
      expect(r.status, cases[i]!.join(' ')).toBe(2);
      expect(r.stderr).toContain('Usage: npm run ingest');
    });
  });

  it('runs a job with plain progress lines off a terminal, then a summary', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-cli-'));
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
    const r = cli(['fr.ban', '--input', file, '--data-dir', join(root, 'data')]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/fr\.ban adresses-75: \d+ rows, \d+ rows\/s.*, done/);
    expect(r.stdout).toMatch(/addresses\/adresses-33: 3 rows, 0 rejected\n  addresses\/adresses-75: 6 rows, 0 rejected/);
    expect(existsSync(join(root, 'data/tables/addresses/country=fr/adresses-75.parquet'))).toBe(true);
  });

  it('fails with a clear message and exit code 1 when a job fails', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-cli-'));
    const file = join(root, 'adresses-75.csv');
    await writeFile(file, 'nom;prenom\nDupont;Jean\n');
    const r = cli(['fr.ban', '--input', file, '--data-dir', join(root, 'data')]);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('ingest failed: not a BAN adresses file');
    expect(r.stderr).not.toMatch(/at .*\.ts:\d+/);
  });

  it('ingests the samples only into an empty data folder with --if-empty', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-cli-')), 'data');
    const first = cli(['samples', '--if-empty'], { DATA_DIR: dataDir });
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toContain('addresses/adresses-75');
    const second = cli(['samples', '--if-empty'], { DATA_DIR: dataDir });
    expect(second.status).toBe(0);
    expect(second.stderr).toContain('samples not ingested again');
  }, 300_000); // every sample job runs in the child: minutes on a loaded machine
});
