import { hasPartitions, tableGlob } from '../../schemas/tables/layout.ts';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { createProgress } from '../core/progress.ts';
import { DuckDBInstance, quotedString } from '@duckdb/node-api';
import { cmhcSource } from '../../datasets/ca/cmhc/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob, type ZoneValueInput } from '../core/kinds/zone-values.ts';
import { decodeBuffer } from '../core/readers/encoding.ts';

/**
 * CMHC's Rental Market Survey as the HMIP portal exports a table (Windows-1252, CRLF): a title
 * line `<geography> — <table>`, a sub-title with the dwelling type and survey month, a header of
 * bedroom types each over a value and a reliability-letter column, the rows, a blank line and a
 * Notes block. Average rents (CAD/month) and vacancy rates (%) of Quebec's rental-survey
 * neighbourhoods become zone values; rows naming another geography are said and skipped, and an
 * export that names no Quebec neighbourhood at all (the Vancouver CMA history in the real
 * extract) is refused whole.
 */
const TABLES = [
  { pattern: /average rent/i, indicator: 'rent.average', unit: 'CAD/month' },
  { pattern: /vacancy rate/i, indicator: 'rental.vacancy_rate', unit: '%' },
] as const;

/** Bedroom types of the header, as breakdowns; the total is the whole (null). */
const BEDROOMS: Record<string, string | null> = { studio: 'studio', bachelor: 'studio', '1 bedroom': 'one_bedroom', '2 bedroom': 'two_bedrooms', '3 bedroom +': 'three_bedrooms_plus', total: null };

/** CMHC's letters (see the export's Notes): a excellent, b very good -> high; c good -> medium; d poor -> low (spec 2.5). */
const RELIABILITY: Record<string, 'high' | 'medium' | 'low'> = { a: 'high', b: 'high', c: 'medium', d: 'low' };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/** "October 2024" or "2024 October" anywhere in a text -> the survey month. */
export function surveyMonth(text: string): { start: string; end: string } | null {
  const m = new RegExp(`\\b(?:(${MONTHS.join('|')})\\s+(\\d{4})|(\\d{4})\\s+(${MONTHS.join('|')}))\\b`, 'i').exec(text);
  if (!m) return null;
  const year = Number(m[2] ?? m[3]);
  const month = MONTHS.indexOf((m[1] ?? m[4])!.toLowerCase());
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const mm = String(month + 1).padStart(2, '0');
  return { start: `${year}-${mm}-01`, end: `${year}-${mm}-${last}` };
}

/** Names compared without case, accents, punctuation or HMIP's "Zone N - " prefix. */
export const nameKey = (s: string) => s.replace(/^\s*zone\s+\d+\s*-\s*/i, '').normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^a-z0-9]+/g, ' ').trim();

/** One CSV line of the export (quoted fields only in the Notes). */
function fields(line: string): string[] {
  const out: string[] = [];
  let cur = '', quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) { if (ch === '"' && line[i + 1] === '"') { cur += '"'; i++; } else if (ch === '"') quoted = false; else cur += ch; } else if (ch === '"') quoted = true;
    else if (ch === ',') { out.push(cur); cur = ''; } else cur += ch;
  }
  out.push(cur);
  return out;
}

/** Quebec's rental-survey neighbourhoods of the published zones table, by name key. */
async function surveyAreas(dataDir: string): Promise<Map<string, string>> {
  const areas = new Map<string, string>();
  if (!hasPartitions(dataDir, 'ca', 'zones')) return areas;
  const db = await DuckDBInstance.create(':memory:');
  const c = await db.connect();
  try {
    const rows = (await c.runAndReadAll(`SELECT code, name FROM read_parquet(${quotedString(tableGlob(dataDir, 'ca', 'zones'))}, union_by_name = true) WHERE level = 'rental_survey_area' AND name IS NOT NULL`)).getRowObjectsJS() as { code: string; name: string }[];
    for (const r of rows) areas.set(nameKey(r.name), r.code);
  } finally { c.closeSync(); db.closeSync(); }
  return areas;
}

export async function ingestCmhc(ctx: JobContext, input: JobInput & { encoding?: string }): Promise<PartitionSummary[]> {
  const text = decodeBuffer(await readFile(input.path), input.encoding ?? 'windows-1252');
  const lines = text.split(/\r?\n/);
  const [geography = '', title = ''] = (lines[0] ?? '').split(/\s+[—–-]\s+/, 2).map((s) => s.trim());
  const table = TABLES.find((t) => t.pattern.test(title));
  if (!table) throw new Error(`not an HMIP Rental Market Survey table of average rents or vacancy rates: title line ${JSON.stringify((lines[0] ?? '').trim())}`);
  const headerAt = lines.findIndex((l) => l.startsWith(','));
  if (headerAt < 0) throw new Error('no header row of bedroom types (a line starting with a comma) in the export');
  const header = fields(lines[headerAt]!);
  const columns: { at: number; breakdown: string | null }[] = [];
  for (let i = 1; i < header.length; i++) {
    const name = header[i]!.trim().toLowerCase();
    if (name === '') continue;
    if (!(name in BEDROOMS)) throw new Error(`unexpected column ${JSON.stringify(header[i])} in the header (expected ${Object.keys(BEDROOMS).join(', ')})`);
    columns.push({ at: i, breakdown: BEDROOMS[name]! });
  }
  const month = surveyMonth(lines[1] ?? '');
  const areas = await surveyAreas(ctx.dataDir);
  const historyOf = areas.get(nameKey(geography)) ?? null;

  return runZoneValuesJob(ctx, { country: 'ca', job: 'ca.cmhc', source: cmhcSource, input, rejectsPartition: `${cmhcSource.id}.${table.indicator}` }, async ({ rejects, writer: writerOf }) => {
    const skipped: string[] = [];
    let total = 0, matched = 0;
    // The export is read whole (a few kilobytes): the share of its lines stands for the share of bytes.
    const progress = createProgress(`ca.cmhc ${basename(input.path)}`, lines.length, ctx.progressOut);
    for (let n = headerAt + 1; n < lines.length; n++) {
      const line = lines[n]!;
      progress.tick(total, n + 1);
      if (line.trim() === '') break; // the Notes follow the blank line
      total++;
      const f = fields(line);
      const label = f[0]!.trim();
      // Rows are zones of the geography (a table "by zone"), or survey months of one geography (a history).
      const rowMonth = surveyMonth(label);
      const code = rowMonth ? historyOf : areas.get(nameKey(label)) ?? null;
      const period = rowMonth ?? month;
      if (!code) { skipped.push(rowMonth ? `${label} of ${geography || 'an unnamed geography'}` : label); continue; }
      if (!period) { rejects.add(n + 1, 'no survey month in the sub-title or the row', line); continue; }
      matched++;
      const partition = `${cmhcSource.id}.${table.indicator.split('.')[1]}.${period.start.slice(0, 4)}`;
      const writer = await writerOf(partition);
      for (const c of columns) {
        const raw = (f[c.at] ?? '').trim();
        const letter = (f[c.at + 1] ?? '').trim().toLowerCase();
        const suppressed = raw === '**' || raw === '';
        const value = suppressed ? null : Number(raw.replace(/[$,\s]/g, ''));
        if (!suppressed && !Number.isFinite(value)) { rejects.add(n + 1, `${c.breakdown ?? 'total'}: ${JSON.stringify(raw)} is not a number`, line); continue; }
        if (!suppressed && !(letter in RELIABILITY)) { rejects.add(n + 1, `${c.breakdown ?? 'total'}: reliability letter ${JSON.stringify(letter)} is not a, b, c or d`, line); continue; }
        const row: ZoneValueInput = {
          level: 'rental_survey_area', code, indicator: table.indicator, breakdown: c.breakdown, period_start: period.start, period_end: period.end,
          value, unit: table.unit, suppressed, reliability: suppressed ? null : RELIABILITY[letter]!,
        };
        const why = writer.add(row);
        if (why) rejects.add(n + 1, why, line);
      }
    }
    progress.done();
    for (const s of skipped) ctx.log(`ca.cmhc: skipped ${s}: not a rental-survey neighbourhood of Quebec in ca/zones`);
    if (matched === 0) {
      throw new Error(`this export names no rental-survey neighbourhood of Quebec ingested in ca/zones (geography ${JSON.stringify(geography || '(none in the title line)')}${skipped.length ? `; rows: ${skipped.slice(0, 3).join('; ')}${skipped.length > 3 ? '...' : ''}` : ''}): nothing is published`);
    }
    return total;
  });
}
