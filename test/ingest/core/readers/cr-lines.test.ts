import { readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { hasCrOnlyLines, withLfLines } from '../../../../ingest/core/readers/cr-lines.ts';
import { readCsv } from '../../../../ingest/core/readers/csv.ts';

describe('CR-only line ends', () => {
  it('a CR-only file is read through an LF copy of the same name, byte for byte otherwise, removed when done', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cr-test-'));
    const path = join(dir, 'list.csv');
    await writeFile(path, '\uFEFF"a";"b"\r"1";"x\ry"\r"2";"z"\r');
    expect(await hasCrOnlyLines(path)).toBe(true);
    const lf = await withLfLines(path);
    expect(lf.converted).toBe(true);
    expect(basename(lf.path)).toBe('list.csv');
    expect(readFileSync(lf.path, 'utf8')).toBe('\uFEFF"a";"b"\n"1";"x\ny"\n"2";"z"\n');
    const rows = [];
    for await (const r of readCsv(lf.path, { separator: ';' })) rows.push(r.record);
    expect(rows).toEqual([{ a: '1', b: 'x\ny' }, { a: '2', b: 'z' }]);
    await lf.done();
    expect(existsSync(lf.path)).toBe(false);
    expect(existsSync(path)).toBe(true);
  });
  it('LF and CRLF files are read as they are', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-cr-test-'));
    for (const [name, text] of [['lf.csv', 'a;b\n1;2\n'], ['crlf.csv', 'a;b\r\n1;2\r\n']] as const) {
      await writeFile(join(dir, name), text);
      expect(await hasCrOnlyLines(join(dir, name))).toBe(false);
      expect(await withLfLines(join(dir, name))).toMatchObject({ path: join(dir, name), converted: false });
    }
  });
});
