import { readCsv } from '../core/readers/csv.ts';

/** Levels of the REFNIS code list, told apart by the shape of the code. */
export type RefnisLevel = 'kingdom' | 'region' | 'province' | 'arrondissement' | 'commune';

export interface RefnisEntry {
  code: string;
  level: RefnisLevel;
  fr: string;
  nl: string;
  /** Language regime of a commune as published (N, F, D, FN, NF, FD, DF...); null for wider entities. */
  regime: string | null;
  /** Codes of the wider entities, as the list nests them. */
  region: string | null;
  province: string | null;
  arrondissement: string | null;
}

/** 01000 kingdom; 02000/03000/04000 regions; 10000, 20001, 20002, 30000... provinces; NN000 arrondissements; others communes. */
export function refnisLevel(code: string): RefnisLevel {
  if (code === '01000') return 'kingdom';
  if (/^0[2-4]000$/.test(code)) return 'region';
  if (/^[1-9]0000$/.test(code) || code === '20001' || code === '20002') return 'province';
  if (/^\d{2}000$/.test(code)) return 'arrondissement';
  return 'commune';
}

/** Region of a province or arrondissement code (Statbel's numbering: 2x Brabant split by language, 21 Brussels). */
export function regionOfCode(code: string): string {
  if (code.startsWith('21')) return '04000';
  if (code === '20002' || code.startsWith('25')) return '03000';
  return ['1', '3', '4', '7'].includes(code[0]!) || code === '20001' || /^2[34]/.test(code) ? '02000' : '03000';
}

/** Province of an arrondissement or commune code; null in Brussels-Capital (spec 2.4). */
export function provinceOfCode(code: string): string | null {
  if (code.startsWith('21')) return null;
  if (/^2[34]/.test(code)) return '20001';
  if (code.startsWith('25')) return '20002';
  return `${code[0]}0000`;
}

/**
 * Statbel's REFNIS list (CSV, ';', Latin-1): "Code INS;Entités administratives;Langue;Code NIS;
 * Administratieve eenheden;Taal". Entities come nested (region, province, arrondissements, communes);
 * the parents are also derived from the codes, so a list in another order reads the same.
 */
export async function readRefnis(path: string, encoding = 'latin1'): Promise<Map<string, RefnisEntry>> {
  const out = new Map<string, RefnisEntry>();
  for await (const { record, error, line } of readCsv(path, { separator: ';', encoding })) {
    if (error) throw new Error(`REFNIS ${path} line ${line}: ${error}`);
    const code = (record['Code INS'] ?? record['Code NIS'] ?? '').trim();
    if (!/^\d{5}$/.test(code)) {
      if (line === 2 && !('Code INS' in record)) throw new Error(`not a REFNIS list: columns are ${Object.keys(record).join(', ')}`);
      continue;
    }
    const level = refnisLevel(code);
    const arrondissement = level === 'commune' ? `${code.slice(0, 2)}000` : level === 'arrondissement' ? code : null;
    out.set(code, {
      code, level,
      fr: (record['Entités administratives'] ?? '').trim(),
      nl: (record['Administratieve eenheden'] ?? '').trim(),
      regime: level === 'commune' ? ((record['Langue'] ?? '').trim() || null) : null,
      region: level === 'region' ? code : level === 'kingdom' ? null : regionOfCode(code),
      province: level === 'province' ? code : level === 'commune' || level === 'arrondissement' ? provinceOfCode(code) : null,
      arrondissement,
    });
  }
  if (out.size === 0) throw new Error(`no REFNIS code read from ${path}`);
  return out;
}
