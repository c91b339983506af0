import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { columnIndex, readXlsxRows } from '../../../../ingest/core/readers/xlsx.ts';
import { workbook } from '../../../helpers/xlsx.ts';

describe('readXlsxRows', () => {
  it('reads shared, inline and rich strings, numbers as written, gaps as empty cells, through the workbook relationships', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-xlsx-'));
    const path = await workbook(dir, [
      '<row r="1"><c r="A1" t="s"><v>0</v></c></row>',
      '<row r="3"><c r="A3"><v>913007</v></c><c r="C3" t="s"><v>1</v></c><c r="D3"><v>699195.0625</v></c><c r="E3" t="inlineStr"><is><t>inline</t></is></c><c r="F3" t="s"><v>2</v></c></row>',
    ].join(''), ['Titre &amp; title', "Numéro d'autorisation"]);
    expect(await readXlsxRows(path)).toEqual([
      { row: 1, cells: ['Titre & title'] },
      { row: 3, cells: ['913007', '', "Numéro d'autorisation", '699195.0625', 'inline', 'rich text'] },
    ]);
    await expect(readXlsxRows(path, { sheet: 'Other' })).rejects.toThrow(/no sheet "Other" \(sheets: Data\)/);
  });
  it('refuses a file that is not a workbook', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-xlsx-'));
    await writeFile(join(dir, 'x.xlsx'), 'a;b\n1;2\n');
    await expect(readXlsxRows(join(dir, 'x.xlsx'))).rejects.toThrow(/not an \.xlsx workbook/);
  });
  it('column letters', () => {
    expect([columnIndex('A1'), columnIndex('Z9'), columnIndex('AA10'), columnIndex('AK2')]).toEqual([0, 25, 26, 36]);
  });
});
