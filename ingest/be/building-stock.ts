import { fileProgress } from '../core/progress.ts';
import { buildingStockSource } from '../../datasets/be/building-stock/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { runZoneValuesJob } from '../core/kinds/zone-values.ts';
import { readCsv, readCsvHeader } from '../core/readers/csv.ts';
import { requireColumns } from '../core/columns.ts';

/**
 * Statbel's building stock as published (building_stock_open_data.txt in
 * building_stock_open_data_<year>.zip: pipe-separated, Latin-1, one row per year, REFNIS zone,
 * statistic and building type) -> Belgium's housing figures by municipality (CD_REFNIS_LVL 5):
 * - housing.dwellings: the dwellings (T8) of every building type R1-R6;
 * - housing.houses_share: the dwellings in houses (R1 closed, R2 semi-detached, R3 detached,
 *   farms and castles) over all dwellings, in %, one decimal.
 * The other statistics and the wider zones are read and left. A municipality lacking the
 * dwellings of one of the six types gets no figure rather than a partial total (said in the log).
 * One partition per year (the stock on 1 January of CD_YEAR), from the rows.
 */
export const BUILDING_STOCK_INDICATORS = { dwellings: 'housing.dwellings', housesShare: 'housing.houses_share' } as const;

/** Column names since 2023; the 1995-2022 files name the labels TX_ instead of CD_ (same layout). */
const COLUMNS = ['CD_YEAR', 'CD_REFNIS', 'CD_REFNIS_LVL', 'CD_STAT_TYPE', 'CD_BUILDING_TYPE', 'MS_VALUE'] as const;
const BUILDING_TYPES = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'] as const;
const HOUSES = new Set(['R1', 'R2', 'R3']);
const DWELLINGS = 'T8';
const MUNICIPALITY = '5';

/** The figures of one municipality from its dwellings by building type, or null when a type is missing. */
export function housingOf(byType: ReadonlyMap<string, number>): { dwellings: number; housesShare: number | null } | null {
  if (!BUILDING_TYPES.every((t) => byType.has(t))) return null;
  const dwellings = BUILDING_TYPES.reduce((s, t) => s + byType.get(t)!, 0);
  const inHouses = [...HOUSES].reduce((s, t) => s + byType.get(t)!, 0);
  return { dwellings, housesShare: dwellings === 0 ? null : Math.round((1000 * inHouses) / dwellings) / 10 };
}

export interface BuildingStockInput extends JobInput { encoding?: string }

export async function ingestBuildingStock(ctx: JobContext, input: BuildingStockInput): Promise<PartitionSummary[]> {
  const encoding = input.encoding ?? 'latin1';
  const header = await readCsvHeader(input.path, { separator: '|', encoding });
  requireColumns(header, COLUMNS, "Statbel's building stock (building_stock_open_data.txt, pipe-separated)");
  return runZoneValuesJob(ctx, { country: 'be', job: 'be.census', source: buildingStockSource, input, rejectsPartition: buildingStockSource.id }, async ({ rejects, writer }) => {
    // year -> municipality -> building type -> dwellings, with the line of the municipality's first row.
    const stock = new Map<number, Map<string, { line: number; byType: Map<string, number> }>>();
    let total = 0;
    for await (const { line, record, error } of readCsv(input.path, { separator: '|', encoding, progress: fileProgress(ctx, 'be.census', input.path) })) {
      total++;
      if (error) { rejects.add(line, error, record); continue; }
      if ((record.CD_REFNIS_LVL ?? '').trim() !== MUNICIPALITY || (record.CD_STAT_TYPE ?? '').trim() !== DWELLINGS) continue;
      const yearCell = (record.CD_YEAR ?? '').trim();
      if (!/^\d{4}$/.test(yearCell)) { rejects.add(line, `CD_YEAR ${JSON.stringify(record.CD_YEAR)} is not a year`, record); continue; }
      const code = (record.CD_REFNIS ?? '').trim();
      if (!/^\d{5}$/.test(code)) { rejects.add(line, `CD_REFNIS ${JSON.stringify(code)} is not a 5-digit NIS code`, record); continue; }
      const type = (record.CD_BUILDING_TYPE ?? '').trim();
      if (!(BUILDING_TYPES as readonly string[]).includes(type)) { rejects.add(line, `CD_BUILDING_TYPE ${JSON.stringify(type)} is not one of ${BUILDING_TYPES.join(', ')}`, record); continue; }
      const cell = (record.MS_VALUE ?? '').trim();
      // An empty cell is a statistic Statbel did not collect: the municipality's total stays unknown.
      if (cell === '') continue;
      if (!/^\d+$/.test(cell)) { rejects.add(line, `MS_VALUE ${JSON.stringify(cell)} is not a count of dwellings`, record); continue; }
      const year = Number(yearCell);
      const ofYear = stock.get(year) ?? new Map();
      stock.set(year, ofYear);
      const m = ofYear.get(code) ?? { line, byType: new Map<string, number>() };
      ofYear.set(code, m);
      if (m.byType.has(type)) { rejects.add(line, `a second ${type} dwellings count for ${code} in ${year}`, record); continue; }
      m.byType.set(type, Number(cell));
    }
    const incomplete: string[] = [];
    for (const [year, ofYear] of stock) {
      const w = await writer(`${buildingStockSource.id}.${year}`);
      const common = { level: 'locality' as const, breakdown: null, period_start: `${year}-01-01`, period_end: `${year}-01-01`,
        // The cadastre counts every building: an exhaustive register, not a survey.
        reliability: 'high' as const };
      for (const [code, m] of ofYear) {
        const h = housingOf(m.byType);
        if (!h) { incomplete.push(`${code} (${year})`); continue; }
        const rows = [
          { ...common, code, indicator: BUILDING_STOCK_INDICATORS.dwellings, unit: 'count', value: h.dwellings },
          ...(h.housesShare === null ? [] : [{ ...common, code, indicator: BUILDING_STOCK_INDICATORS.housesShare, unit: '%', value: h.housesShare, sample_size: h.dwellings }]),
        ];
        for (const r of rows) {
          const why = w.add(r);
          if (why) rejects.add(m.line, why, { CD_REFNIS: code, CD_YEAR: year });
        }
      }
    }
    if (incomplete.length > 0) ctx.log(`be.census: no figure for ${incomplete.length} municipalities lacking the dwellings of a building type: ${incomplete.slice(0, 5).join(', ')}${incomplete.length > 5 ? '...' : ''}`);
    return total;
  });
}
