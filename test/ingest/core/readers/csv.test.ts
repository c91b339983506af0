import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import iconv from 'iconv-lite';
import { afterAll, describe, expect, it } from 'vitest';
import { inspectCsv, readCsv, readCsvHeader, type CsvRow } from '../../../../ingest/core/readers/csv.ts';
import { CsvParser, sniffSeparator } from '../../../../ingest/core/readers/csv-parser.ts';

const dir = mkdtempSync(join(tmpdir(), 'csv-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

async function all(path: string, opts: Parameters<typeof readCsv>[1] = {}): Promise<CsvRow[]> {
  const out: CsvRow[] = [];
  for await (const r of readCsv(path, opts)) out.push(r);
  return out;
}

describe('readCsv', () => {
  it('reads a UTF-8 semicolon file with BOM, sniffing the separator', async () => {
    const p = file('bom.csv', '\uFEFFid;nom_voie;code_postal\r\n1;Rue Gérard;75013\r\n2;Rue de l’Église;75013\r\n');
    const rows = await all(p);
    expect(rows).toEqual([
      { line: 2, record: { id: '1', nom_voie: 'Rue Gérard', code_postal: '75013' } },
      { line: 3, record: { id: '2', nom_voie: 'Rue de l’Église', code_postal: '75013' } },
    ]);
    expect(await readCsvHeader(p, {})).toEqual(['id', 'nom_voie', 'code_postal']);
    expect(await inspectCsv(p)).toEqual({ separator: ';', columns: ['id', 'nom_voie', 'code_postal'] });
  });

  it('decodes Latin-1 / windows-1252 and cp850', async () => {
    const text = "id,voie\n1,Rue de l'Église\n2,Côte-Nord\n";
    const latin = file('latin1.csv', iconv.encode(text, 'latin1'));
    const rows = await all(latin, { encoding: 'latin1' });
    expect(rows.map((r) => r.record.voie)).toEqual(["Rue de l'Église", 'Côte-Nord']);
    // cp1252-only characters are read too when the file is labelled latin1
    const w = file('cp1252.csv', iconv.encode('id;voie\n1;L’Œuvre €\n', 'windows-1252'));
    expect((await all(w, { encoding: 'ISO-8859-1' }))[0].record.voie).toBe('L’Œuvre €');
    expect((await all(w, { encoding: 'cp1252' }))[0].record.voie).toBe('L’Œuvre €');
    const dos = file('cp850.csv', iconv.encode('id|nom\n1|Montréal\n2|Québec\n', 'cp850'));
    expect((await all(dos, { encoding: 'cp850' })).map((r) => r.record.nom)).toEqual(['Montréal', 'Québec']);
  });

  it('rejects an unknown encoding clearly', async () => {
    const p = file('x.csv', 'a\n1\n');
    await expect(all(p, { encoding: 'klingon-9' })).rejects.toThrow(/Unsupported encoding "klingon-9"/);
  });

  it('decompresses gzip (by extension and by magic bytes)', async () => {
    const body = ['a,b', ...Array.from({ length: 5000 }, (_, i) => `${i},x${i}`)].join('\n') + '\n';
    const gz = file('data.csv.gz', gzipSync(Buffer.from(body)));
    const rows = await all(gz);
    expect(rows).toHaveLength(5000);
    expect(rows[4999]).toEqual({ line: 5001, record: { a: '4999', b: 'x4999' } });
    const disguised = file('data-gz.csv', gzipSync(Buffer.from(body)));
    expect((await all(disguised)).length).toBe(5000);
  });

  it('reports rows with a wrong column count with their line number and keeps reading', async () => {
    const p = file('bad.csv', 'a;b;c\n1;2;3\n4;5\n6;7;8;9\n10;11;12\n');
    const rows = await all(p);
    expect(rows).toEqual([
      { line: 2, record: { a: '1', b: '2', c: '3' } },
      { line: 3, record: { a: '4', b: '5' }, error: 'expected 3 fields, found 2' },
      { line: 4, record: { a: '6', b: '7', c: '8' }, error: 'expected 3 fields, found 4' },
      { line: 5, record: { a: '10', b: '11', c: '12' } },
    ]);
  });

  it('handles quoted fields with separators, quotes and line breaks; later line numbers stay right', async () => {
    const p = file(
      'quoted.csv',
      'id;adresse;note\r\n' +
        '1;"12; rue ""du"" Port";ok\r\n' +
        '2;"ligne 1\r\nligne 2\r\nligne 3";"a\nb"\r\n' +
        '\r\n' +
        '3;simple;fin\r\n' +
        '4;un "guillemet" brut;"x"y\r\n',
    );
    const rows = await all(p);
    expect(rows).toEqual([
      { line: 2, record: { id: '1', adresse: '12; rue "du" Port', note: 'ok' } },
      { line: 3, record: { id: '2', adresse: 'ligne 1\r\nligne 2\r\nligne 3', note: 'a\nb' } },
      { line: 8, record: { id: '3', adresse: 'simple', note: 'fin' } },
      { line: 9, record: { id: '4', adresse: 'un "guillemet" brut', note: 'xy' } },
    ]);
  });

  it('reports an unterminated quote without swallowing the rest of the file', async () => {
    const p = file('unterminated.csv', 'a,b\n1,"oops\n2,ok\n');
    const rows = await all(p);
    expect(rows[0]).toMatchObject({ line: 2, error: expect.stringMatching(/unterminated/) });
    expect(rows[1]).toEqual({ line: 3, record: { a: '2', b: 'ok' } });
  });

  it('parses identically whatever the chunk boundaries', () => {
    const text = 'k;v\r\n1;"a\r\n""b"""\r\n2;c\r\n\r\n3;"d;e"\r\n4;f';
    const expected = parseAll(text, [text.length]);
    expect(expected.map((r) => r.line)).toEqual([2, 4, 6, 7]);
    for (let cut = 1; cut < text.length; cut++) {
      expect(parseAll(text, [cut])).toEqual(expected);
    }
    expect(parseAll(text, Array.from({ length: text.length }, (_, i) => i + 1))).toEqual(expected);
  });

  it('sniffs separators and cleans headers', async () => {
    expect(sniffSeparator('a;b;c')).toBe(';');
    expect(sniffSeparator('a\tb\tc')).toBe('\t');
    expect(sniffSeparator('a|b|"c,d,e"')).toBe('|');
    expect(sniffSeparator('"x;y",a,b')).toBe(',');
    const p = file('hdr.csv', ' id ;;name;name\n1;2;3;4\n');
    expect(await readCsvHeader(p, {})).toEqual(['id', 'column_2', 'name', 'name_2']);
    expect(await readCsvHeader(file('empty.csv', ''), {})).toEqual([]);
    const tab = file('tab.tsv', 'x\ty\n1\t2');
    expect(await all(tab)).toEqual([{ line: 2, record: { x: '1', y: '2' } }]);
    expect(await all(tab, { separator: ',' })).toEqual([{ line: 2, record: { 'x\ty': '1\t2' } }]);
  });

  it('does not let a __proto__ column touch the prototype', async () => {
    const p = file('proto.csv', '__proto__,b\n{},2\n');
    const [row] = await all(p);
    expect(Object.getPrototypeOf(row.record)).toBe(Object.prototype);
    expect(Object.keys(row.record)).toEqual(['__proto__', 'b']);
  });
});

function parseAll(text: string, cuts: number[]): CsvRow[] {
  const parser = new CsvParser({ separator: ';' });
  const out: CsvRow[] = [];
  let prev = 0;
  for (const c of [...cuts, text.length]) {
    if (c <= prev) continue;
    parser.push(text.slice(prev, c));
    for (let r = parser.next(); r; r = parser.next()) out.push(r);
    prev = c;
  }
  parser.end();
  for (let r = parser.next(); r; r = parser.next()) out.push(r);
  return out;
}

describe('readCsv progress', () => {
  it('reports bytes read from disk (compressed size for gzip)', async () => {
    const body = 'a;b\n' + Array.from({ length: 3000 }, (_, i) => `${i};é${i}`).join('\n');
    for (const [name, content] of [['p.csv', Buffer.from(body)], ['p.csv.gz', gzipSync(body)]] as const) {
      const p = file(name, content);
      let bytes = 0;
      let n = 0;
      for await (const _ of readCsv(p, { onBytes: (k) => (bytes += k) })) n++;
      expect(n).toBe(3000);
      expect(bytes).toBe(content.length);
    }
  });
});
