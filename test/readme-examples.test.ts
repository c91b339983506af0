import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CliIO } from '../api/core/cli.ts';
import { main as accounts } from '../api/accounts/cli.ts';
import { main as keys } from '../api/core/keys/cli.ts';
import { main as listing } from '../api/listing/cli.ts';
import { main as marketplace } from '../api/marketplace/cli.ts';
import { main as signin } from '../api/signin/cli.ts';

const README = readFileSync(join(import.meta.dirname, '../README.md'), 'utf8');
const CLIS: Record<string, (argv: string[], io: CliIO) => Promise<number>> = { accounts, keys, listing, marketplace, signin };

/** A command line split as the shell does for these examples: words, "double" and 'single' quotes. */
export function shellWords(line: string): string[] {
  const out: string[] = [];
  const re = /"((?:[^"\\]|\\.)*)"|'([^']*)'|([^\s"']+)/g;
  let word = '';
  let last = -1;
  for (let m = re.exec(line); m; m = re.exec(line)) {
    // Adjacent pieces (--option="a b") make one word.
    if (last !== m.index && word) { out.push(word); word = ''; }
    word += m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2] ?? m[3]!;
    last = re.lastIndex;
  }
  if (word) out.push(word);
  return out;
}

/**
 * The README's `npm run <cli> -- ...` examples of the state CLIs, in the order they appear, as
 * written: a trailing comment dropped, optional `[...]` parts left out. Lines with a placeholder
 * (`<id>`, `...`), alternatives (`a | b`) or a redirection from a file name only the reader has
 * are forms, not examples, and are listed apart.
 */
function examples(): { line: string; cli: string; argv: string[] }[] {
  const out: { line: string; cli: string; argv: string[] }[] = [];
  for (const block of README.matchAll(/```sh\n([\s\S]*?)```/g)) {
    for (const raw of block[1]!.split('\n')) {
      const m = /^npm run (accounts|keys|listing|marketplace|signin) -- (.*)$/.exec(raw.trim());
      if (!m) continue;
      const text = m[2]!.replace(/\s+#\s.*$/, '').replace(/\s*\[[^\]]*\]/g, '').trim();
      if (/<|(^|\s)\.\.\.(\s|$)| \| /.test(text)) continue;
      out.push({ line: raw.trim(), cli: m[1]!, argv: shellWords(text) });
    }
  }
  return out;
}

describe('the README examples of the state CLIs', () => {
  it('splits command lines as the shell does', () => {
    expect(shellWords(`clients create --user julie@example.ca --profile '{"company_name": "Plateau Immo"}' --name "Grand Montréal"`))
      .toEqual(['clients', 'create', '--user', 'julie@example.ca', '--profile', '{"company_name": "Plateau Immo"}', '--name', 'Grand Montréal']);
  });

  it('run as written, in the README order, on a fresh embedded state', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-readme-')), 'data');
    const list = examples();
    expect(list.length).toBeGreaterThan(20);
    expect(new Set(list.map((e) => e.cli))).toEqual(new Set(Object.keys(CLIS)));
    const failed: string[] = [];
    for (const e of list) {
      const err: string[] = [];
      const code = await CLIS[e.cli]!(e.argv, { out: () => {}, err: (l) => err.push(l), env: { DATA_DIR: dataDir } });
      if (code !== 0) failed.push(`${e.line} -> exit ${code}: ${err.join(' ').slice(0, 200)}`);
    }
    expect(failed).toEqual([]);
  }, 300_000);

  it('names only files and folders of the repository where it names a committed one', () => {
    const named = [...new Set([...README.matchAll(/\bdatasets\/[A-Za-z0-9_./-]*[A-Za-z0-9_/]/g)].map((m) => m[0]))];
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((p) => !existsSync(join(import.meta.dirname, '..', p)))).toEqual([]);
  });
});
