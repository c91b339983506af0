import { readCsv } from '../core/readers/csv.ts';

/** A municipality of MAMH's directory (MUN.csv): geographic code, name, MRC or equivalent territory, administrative region. */
export interface Municipality {
  code: string;
  name: string;
  designation: string | null;
  region: { code: string; name: string } | null;
  /** The MRC, or for a municipality outside any MRC its equivalent territory (the census division). */
  mrc: { code: string; name: string; equivalent: boolean } | null;
}

/** "Estrie (05)" -> {name: Estrie, code: 05}; null when the text has no code in parentheses. */
export function nameAndCode(text: string | undefined): { code: string; name: string } | null {
  const m = /^(.*\S)\s*\((\d+)\)\s*$/.exec((text ?? '').trim());
  return m ? { name: m[1]!, code: m[2]! } : null;
}

/**
 * MUN.csv of the Répertoire des municipalités (MAMH): comma separated, quoted, UTF-8 with BOM.
 * `mrc` is "MRC Name (NNN)"; it is empty for a city outside any MRC (Montréal, Laval, Gatineau...),
 * whose equivalent territory is then the census division of `divrec` ("Montréal (66)").
 */
export async function readMun(path: string): Promise<Map<string, Municipality>> {
  const out = new Map<string, Municipality>();
  for await (const { record, error, line } of readCsv(path, { separator: ',' })) {
    if (error) throw new Error(`MUN.csv ${path} line ${line}: ${error}`);
    if (line === 2 && !('mcode' in record && 'regadm' in record)) throw new Error(`not a MUN.csv file (no mcode/regadm column): columns are ${Object.keys(record).slice(0, 20).join(', ')}`);
    const code = (record['mcode'] ?? '').trim();
    if (!/^\d{5}$/.test(code)) continue;
    const mrc = nameAndCode(record['mrc']);
    const division = nameAndCode(record['divrec']);
    out.set(code, {
      code,
      name: (record['munnom'] ?? '').trim(),
      designation: (record['mdes'] ?? '').trim() || null,
      region: nameAndCode(record['regadm']),
      mrc: mrc ? { ...mrc, equivalent: false } : division ? { ...division, equivalent: true } : null,
    });
  }
  if (out.size === 0) throw new Error(`no municipality read from ${path}`);
  return out;
}
