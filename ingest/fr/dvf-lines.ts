import { z } from 'zod';
import { quotedIdentifier, quotedString } from '@duckdb/node-api';

/**
 * The two published layouts of DVF lines, each as one list of column checks from which both its
 * zod schema (the reason of a refused line) and its SQL predicate (DuckDB filtering at its own
 * speed) are built, so they cannot drift apart; test/ingest/fr/dvf-lines.test.ts checks both
 * agree line by line. Read with all_varchar: an empty field is '' for zod and NULL for SQL.
 */
type Check =
  | { column: string; kind: 'required'; message: string }
  | { column: string; kind: 'pattern'; pattern: string; optional: boolean; message: string }
  | { column: string; kind: 'number'; min: number; max: number; optional: boolean; decimalComma: boolean; message: string }
  | { column: string; kind: 'date'; format: 'iso' | 'dmy'; message: string };

const sqlIdent = quotedIdentifier;
const sqlText = quotedString;

function checkSql(c: Check): string {
  const col = sqlIdent(c.column);
  switch (c.kind) {
    case 'required': return `coalesce(${col}, '') <> ''`;
    case 'pattern': return c.optional
      ? `(${col} IS NULL OR regexp_full_match(${col}, ${sqlText(c.pattern)}))`
      : `regexp_full_match(coalesce(${col}, ''), ${sqlText(c.pattern)})`;
    case 'number': {
      const v = `TRY_CAST(${c.decimalComma ? `replace(${col}, ',', '.')` : col} AS DOUBLE)`;
      const ok = `coalesce(${v} BETWEEN ${c.min} AND ${c.max}, false)`;
      return c.optional ? `(${col} IS NULL OR ${ok})` : ok;
    }
    case 'date': return c.format === 'iso'
      ? `(regexp_full_match(coalesce(${col}, ''), '\\d{4}-\\d{2}-\\d{2}') AND TRY_CAST(${col} AS DATE) IS NOT NULL)`
      : `(regexp_full_match(coalesce(${col}, ''), '\\d{2}/\\d{2}/\\d{4}') AND TRY_STRPTIME(${col}, '%d/%m/%Y') IS NOT NULL)`;
  }
}

function validDate(s: string, format: 'iso' | 'dmy'): boolean {
  const m = format === 'iso' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(s) : /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(s);
  if (!m) return false;
  const [y, mo, d] = format === 'iso' ? [m[1], m[2], m[3]] : [m[3], m[2], m[1]];
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  return date.getUTCFullYear() === Number(y) && date.getUTCMonth() === Number(mo) - 1 && date.getUTCDate() === Number(d);
}

function checkZod(c: Check): z.ZodType<string> {
  switch (c.kind) {
    case 'required': return z.string().min(1, c.message);
    case 'pattern': {
      const re = new RegExp(`^(?:${c.pattern})$`);
      return z.string().refine((s) => (c.optional && s === '') || re.test(s), c.message);
    }
    case 'number': return z.string().refine((s) => {
      if (s === '') return c.optional;
      const t = (c.decimalComma ? s.replace(',', '.') : s).trim();
      // DuckDB's cast accepts what Number() does for these columns: plain decimals.
      if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return false;
      const v = Number(t);
      return v >= c.min && v <= c.max;
    }, c.message);
    case 'date': return z.string().refine((s) => validDate(s, c.format), c.message);
  }
}

function lineSchema(checks: Check[]) {
  return {
    zod: z.object(Object.fromEntries(checks.map((c) => [c.column, checkZod(c)]))).passthrough(),
    sql: checks.map(checkSql).join('\n  AND '),
  };
}

const DEPARTMENT = '\\d{2}|2[AB]|97\\d';

/** Header of Etalab's geolocated DVF files (40 columns), in the published order. */
export const DVF_GEO_HEADER = [
  'id_mutation', 'date_mutation', 'numero_disposition', 'nature_mutation', 'valeur_fonciere', 'adresse_numero', 'adresse_suffixe',
  'adresse_nom_voie', 'adresse_code_voie', 'code_postal', 'code_commune', 'nom_commune', 'code_departement', 'ancien_code_commune',
  'ancien_nom_commune', 'id_parcelle', 'ancien_id_parcelle', 'numero_volume', 'lot1_numero', 'lot1_surface_carrez', 'lot2_numero',
  'lot2_surface_carrez', 'lot3_numero', 'lot3_surface_carrez', 'lot4_numero', 'lot4_surface_carrez', 'lot5_numero', 'lot5_surface_carrez',
  'nombre_lots', 'code_type_local', 'type_local', 'surface_reelle_bati', 'nombre_pieces_principales', 'code_nature_culture', 'nature_culture',
  'code_nature_culture_speciale', 'nature_culture_speciale', 'surface_terrain', 'longitude', 'latitude',
] as const;

export const DvfGeoLine = lineSchema([
  { column: 'id_mutation', kind: 'required', message: 'empty id_mutation' },
  { column: 'date_mutation', kind: 'date', format: 'iso', message: 'date_mutation is not a YYYY-MM-DD date' },
  { column: 'numero_disposition', kind: 'pattern', pattern: '\\d{1,6}', optional: false, message: 'numero_disposition is not a number' },
  { column: 'nature_mutation', kind: 'required', message: 'empty nature_mutation' },
  { column: 'valeur_fonciere', kind: 'number', min: 0, max: 1e11, optional: true, decimalComma: false, message: 'valeur_fonciere is not an amount' },
  { column: 'code_commune', kind: 'pattern', pattern: '\\d{5}|2[AB]\\d{3}', optional: false, message: 'code_commune is not an INSEE code' },
  { column: 'code_departement', kind: 'pattern', pattern: DEPARTMENT, optional: false, message: 'code_departement is not a department code' },
  { column: 'id_parcelle', kind: 'pattern', pattern: '[0-9][0-9AB][0-9]{3}[0-9]{3}[0-9A-Z]{2}[0-9]{4}', optional: false, message: 'id_parcelle is not a 14-character parcel id' },
  { column: 'code_type_local', kind: 'pattern', pattern: '[1-4]', optional: true, message: 'code_type_local is not 1 to 4' },
  { column: 'surface_reelle_bati', kind: 'number', min: 0, max: 1e7, optional: true, decimalComma: false, message: 'surface_reelle_bati is not a surface' },
  { column: 'nombre_pieces_principales', kind: 'pattern', pattern: '\\d{1,3}', optional: true, message: 'nombre_pieces_principales is not a number' },
  { column: 'surface_terrain', kind: 'number', min: 0, max: 1e9, optional: true, decimalComma: false, message: 'surface_terrain is not a surface' },
  ...[1, 2, 3, 4, 5].map((i): Check => ({ column: `lot${i}_surface_carrez`, kind: 'number', min: 0, max: 1e6, optional: true, decimalComma: false, message: `lot${i}_surface_carrez is not a surface` })),
  { column: 'longitude', kind: 'number', min: -180, max: 180, optional: true, decimalComma: false, message: 'longitude is not a longitude' },
  { column: 'latitude', kind: 'number', min: -90, max: 90, optional: true, decimalComma: false, message: 'latitude is not a latitude' },
]);

/** Header of the DGFiP's ValeursFoncieres-YYYY.txt files (43 columns), in the published order. */
export const DVF_RAW_HEADER = [
  'Identifiant de document', 'Reference document', '1 Articles CGI', '2 Articles CGI', '3 Articles CGI', '4 Articles CGI', '5 Articles CGI',
  'No disposition', 'Date mutation', 'Nature mutation', 'Valeur fonciere', 'No voie', 'B/T/Q', 'Type de voie', 'Code voie', 'Voie',
  'Code postal', 'Commune', 'Code departement', 'Code commune', 'Prefixe de section', 'Section', 'No plan', 'No Volume', '1er lot',
  'Surface Carrez du 1er lot', '2eme lot', 'Surface Carrez du 2eme lot', '3eme lot', 'Surface Carrez du 3eme lot', '4eme lot',
  'Surface Carrez du 4eme lot', '5eme lot', 'Surface Carrez du 5eme lot', 'Nombre de lots', 'Code type local', 'Type local',
  'Identifiant local', 'Surface reelle bati', 'Nombre pieces principales', 'Nature culture', 'Nature culture speciale', 'Surface terrain',
] as const;

/** The five lot columns of the DGFiP's layout, each with its Carrez surface. */
const RAW_LOTS = [['1er lot', 'Surface Carrez du 1er lot'], ['2eme lot', 'Surface Carrez du 2eme lot'], ['3eme lot', 'Surface Carrez du 3eme lot'], ['4eme lot', 'Surface Carrez du 4eme lot'], ['5eme lot', 'Surface Carrez du 5eme lot']] as const;
const GEO_LOTS = [1, 2, 3, 4, 5].map((i) => [`lot${i}_numero`, `lot${i}_surface_carrez`] as const);

export const DvfRawLine = lineSchema([
  { column: 'No disposition', kind: 'pattern', pattern: '\\d{1,6}', optional: false, message: 'No disposition is not a number' },
  { column: 'Date mutation', kind: 'date', format: 'dmy', message: 'Date mutation is not a DD/MM/YYYY date' },
  { column: 'Nature mutation', kind: 'required', message: 'empty Nature mutation' },
  { column: 'Valeur fonciere', kind: 'number', min: 0, max: 1e11, optional: true, decimalComma: true, message: 'Valeur fonciere is not an amount' },
  { column: 'Code departement', kind: 'pattern', pattern: DEPARTMENT, optional: false, message: 'Code departement is not a department code' },
  { column: 'Code commune', kind: 'pattern', pattern: '\\d{1,3}', optional: false, message: 'Code commune is not a commune number' },
  { column: 'Prefixe de section', kind: 'pattern', pattern: '\\d{1,3}', optional: true, message: 'Prefixe de section is not a number' },
  { column: 'Section', kind: 'pattern', pattern: '[0-9A-Z]{1,2}', optional: false, message: 'Section is not a cadastral section' },
  { column: 'No plan', kind: 'pattern', pattern: '\\d{1,4}', optional: false, message: 'No plan is not a parcel number' },
  { column: 'Code type local', kind: 'pattern', pattern: '[1-4]', optional: true, message: 'Code type local is not 1 to 4' },
  { column: 'Surface reelle bati', kind: 'number', min: 0, max: 1e7, optional: true, decimalComma: true, message: 'Surface reelle bati is not a surface' },
  { column: 'Nombre pieces principales', kind: 'pattern', pattern: '\\d{1,3}', optional: true, message: 'Nombre pieces principales is not a number' },
  { column: 'Surface terrain', kind: 'number', min: 0, max: 1e9, optional: true, decimalComma: true, message: 'Surface terrain is not a surface' },
  ...RAW_LOTS.map(([, carrez]): Check => ({ column: carrez, kind: 'number', min: 0, max: 1e6, optional: true, decimalComma: true, message: `${carrez} is not a surface` })),
]);

/**
 * Both layouts brought to one relation of typed lines (the columns the sale aggregation reads),
 * as SELECT lists over a relation holding `line` and the published text columns.
 */
const lotsOf = (cols: string[]) => `list_filter([${cols.map((c) => `nullif(trim(${sqlIdent(c)}), '')`).join(', ')}], x -> x IS NOT NULL)`;
/** Each lot of the line with its Carrez surface (null when the file gives none: lots under 8 m², cellars, parking spaces). */
const lotCarrezOf = (pairs: readonly (readonly [string, string])[], decimalComma: boolean) => `list_filter([${pairs.map(([lot, carrez]) =>
  `struct_pack(lot := nullif(trim(${sqlIdent(lot)}), ''), carrez := TRY_CAST(${decimalComma ? `replace(${sqlIdent(carrez)}, ',', '.')` : sqlIdent(carrez)} AS DOUBLE))`).join(', ')}], x -> x.lot IS NOT NULL)`;

export const GEO_LINE_SELECT = `line, id_mutation, CAST(date_mutation AS DATE) AS date, numero_disposition AS disposition, nature_mutation AS nature,
  TRY_CAST(valeur_fonciere AS DOUBLE) AS value, adresse_numero AS number, adresse_suffixe AS suffix, adresse_nom_voie AS street,
  code_postal AS postcode, code_commune, nom_commune AS commune_name, code_departement, id_parcelle AS parcel, numero_volume AS volume,
  ${lotsOf(['lot1_numero', 'lot2_numero', 'lot3_numero', 'lot4_numero', 'lot5_numero'])} AS lots, ${lotCarrezOf(GEO_LOTS, false)} AS lot_carrez,
  code_type_local AS local_type, TRY_CAST(surface_reelle_bati AS DOUBLE) AS built_surface, TRY_CAST(nombre_pieces_principales AS INTEGER) AS rooms,
  code_nature_culture AS culture, nature_culture_speciale AS special_culture, TRY_CAST(surface_terrain AS DOUBLE) AS land_surface,
  TRY_CAST(longitude AS DOUBLE) AS lng, TRY_CAST(latitude AS DOUBLE) AS lat,
  CASE WHEN longitude IS NOT NULL AND latitude IS NOT NULL THEN 'parcel' END AS position_source`;

const rawCommune = `("Code departement" || lpad("Code commune", CAST(5 - length("Code departement") AS INTEGER), '0'))`;
const frNumber = (c: string) => `TRY_CAST(replace(${sqlIdent(c)}, ',', '.') AS DOUBLE)`;
/**
 * The DGFiP files have no mutation identifier: the lines of one deed share its date, nature,
 * value, commune and document references (Etalab groups them the same way).
 */
export const RAW_LINE_SELECT = `line,
  'dgfip-' || strftime(STRPTIME("Date mutation", '%d/%m/%Y'), '%Y') || '-' || substr(md5(concat_ws('|', "Date mutation", "Nature mutation", "Valeur fonciere", ${rawCommune}, "Reference document", "Identifiant de document")), 1, 16) AS id_mutation,
  CAST(STRPTIME("Date mutation", '%d/%m/%Y') AS DATE) AS date, "No disposition" AS disposition, "Nature mutation" AS nature,
  ${frNumber('Valeur fonciere')} AS value, "No voie" AS number, "B/T/Q" AS suffix, nullif(concat_ws(' ', "Type de voie", "Voie"), '') AS street,
  "Code postal" AS postcode, ${rawCommune} AS code_commune, "Commune" AS commune_name, "Code departement" AS code_departement,
  ${rawCommune} || lpad(coalesce("Prefixe de section", '000'), 3, '0') || lpad("Section", 2, '0') || lpad("No plan", 4, '0') AS parcel,
  "No Volume" AS volume, ${lotsOf(['1er lot', '2eme lot', '3eme lot', '4eme lot', '5eme lot'])} AS lots, ${lotCarrezOf(RAW_LOTS, true)} AS lot_carrez,
  "Code type local" AS local_type, ${frNumber('Surface reelle bati')} AS built_surface, TRY_CAST("Nombre pieces principales" AS INTEGER) AS rooms,
  "Nature culture" AS culture, "Nature culture speciale" AS special_culture, ${frNumber('Surface terrain')} AS land_surface,
  CAST(NULL AS DOUBLE) AS lng, CAST(NULL AS DOUBLE) AS lat, CAST(NULL AS VARCHAR) AS position_source`;
