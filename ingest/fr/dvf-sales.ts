import { readFileSync } from 'node:fs';
import { quotedString } from '@duckdb/node-api';
import { createRequire } from 'node:module';
import { SALE_COLUMNS } from '../../schemas/tables/sales.ts';

/** Department -> region (INSEE codes), from the official list shipped by @etalab/decoupage-administratif. */
function departmentRegions(): [string, string][] {
  const path = createRequire(import.meta.url).resolve('@etalab/decoupage-administratif/data/departements.json');
  return (JSON.parse(readFileSync(path, 'utf8')) as { code: string; region: string }[]).map((d) => [d.code, d.region]);
}

/** Cities divided into municipal arrondissements: arrondissement code pattern -> commune code. */
const ARRONDISSEMENT_SQL = `CASE WHEN regexp_full_match(code_commune, '751(0[1-9]|1\\d|20)') THEN '75056'
  WHEN regexp_full_match(code_commune, '6938[1-9]') THEN '69123' WHEN regexp_full_match(code_commune, '132(0[1-9]|1[0-6])') THEN '13055' END`;

const POSITION_ORDER = `line + CASE WHEN position_source = 'address' THEN 1000000000000 ELSE 0 END`;

/** Market sales: what the price indicators read (an exchange or a compulsory purchase is not a price of the market). */
export const MARKET_NATURES = ['Vente', "Vente en l'état futur d'achèvement"];

/**
 * Places the lines published without coordinates (every line of the DGFiP files, some of Etalab's)
 * at their address when the published BAN addresses know it: same commune or arrondissement,
 * number and street key (street_key expands the DGFiP's abbreviations: BD, AV, RTE...).
 */
export function placeAtAddressesSql(lines: string, addressFiles: string): string {
  return `UPDATE ${lines} SET lng = a.lng, lat = a.lat, position_source = 'address'
    FROM (SELECT locality_code, number, street_key, arg_min(longitude, rep IS NOT NULL) AS lng, arg_min(latitude, rep IS NOT NULL) AS lat
          FROM read_parquet(${addressFiles}, union_by_name = true) WHERE number IS NOT NULL GROUP BY ALL) a
    WHERE ${lines}.lng IS NULL AND a.locality_code = ${lines}.code_commune AND a.number = TRY_CAST(${lines}.number AS INTEGER)
      AND ${lines}.street IS NOT NULL AND a.street_key = street_key(${lines}.street)`;
}

/**
 * One row per mutation from a relation of typed lines (GEO_LINE_SELECT / RAW_LINE_SELECT).
 * The published files repeat a local once per land line of its parcel, and land once per local:
 * each local (parcel, volume, lots, type, surface, rooms) and each land line (parcel, culture,
 * surface) is counted once. Dwellings are houses and apartments; outbuildings add no surface.
 * A deed whose dispositions carry different values is worth their sum; one value repeated on
 * every line is the value of the deed.
 */
export function salesSelect(lines: string, source: string): string {
  const regions = departmentRegions().map(([d, r]) => `(${quotedString(d)}, ${quotedString(r)})`).join(', ');
  const natures = MARKET_NATURES.map(quotedString).join(', ');
  const columns: Record<keyof typeof SALE_COLUMNS, string> = {
    id: 'm.id_mutation', date: 'm.date', nature: 'm.nature', market_sale: `m.nature IN (${natures})`, price: 'v.price',
    property_type: `CASE WHEN coalesce(k.dwellings, 0) > 0 AND coalesce(k.premises, 0) = 0 AND k.houses = k.dwellings THEN 'house'
      WHEN coalesce(k.dwellings, 0) > 0 AND coalesce(k.premises, 0) = 0 AND k.apartments = k.dwellings THEN 'apartment' ELSE 'other' END`,
    dwellings: 'coalesce(k.dwellings, 0)', surface: 'k.surface', rooms: 'k.rooms',
    price_per_m2: `CASE WHEN m.nature IN (${natures}) AND k.dwellings = 1 AND coalesce(k.premises, 0) = 0 AND k.surface > 0 AND v.price > 0 THEN v.price / k.surface END`,
    land_surface: 't.land_surface', outbuildings: 'coalesce(k.outbuildings, 0)', parcels: 'm.parcels', lots: 'lt.lots', carrez_area: 'cz.carrez_area', units: 'un.units', address: 'm.address',
    commune_code: `coalesce(${ARRONDISSEMENT_SQL.replaceAll('code_commune', 'm.code_commune')}, m.code_commune)`,
    arrondissement_code: `CASE WHEN ${ARRONDISSEMENT_SQL.replaceAll('code_commune', 'm.code_commune')} IS NOT NULL THEN m.code_commune END`,
    department_code: 'm.code_departement', region_code: 'r.region', iris_code: 'iris_code(m.lat, m.lng)',
    longitude: 'm.lng', latitude: 'm.lat', position_source: 'm.position_source', cell: 'h3_cell(m.lat, m.lng)', source: quotedString(source),
  };
  // Each subquery names the lines relation itself: a CTE over it, named five times, would be
  // materialised, a full copy of the lines held in memory.
  return `WITH locals AS (SELECT DISTINCT id_mutation, parcel, volume, lots, lot_carrez, local_type, built_surface, rooms FROM ${lines} WHERE local_type IS NOT NULL),
    -- The dwellings by (parcel, volume, lots): a group of one dwelling whose lots no other dwelling
    -- group of its parcel names is told apart from the deed's other dwellings; the others are not
    -- (the file repeats the lots of a disposition on each of its locals).
    g AS (SELECT id_mutation, parcel, volume, coalesce(lots, []) AS lots, count(*) AS n, any_value(local_type) AS local_type, any_value(built_surface) AS surface,
      any_value(rooms) AS rooms, list_sum(list_transform(list_filter(any_value(lot_carrez), x -> x.carrez IS NOT NULL), x -> x.carrez)) AS carrez
      FROM locals WHERE local_type IN ('1', '2') GROUP BY id_mutation, parcel, volume, coalesce(lots, [])),
    lotuse AS (SELECT id_mutation, parcel, lot, count(*) AS k FROM (SELECT id_mutation, parcel, unnest(lots) AS lot FROM g) GROUP BY ALL),
    un AS (SELECT id_mutation, list(struct_pack(parcel := parcel, lots := CASE WHEN len(lots) > 0 THEN list_sort(lots) END, kind := CASE local_type WHEN '1' THEN 'house' ELSE 'apartment' END,
        surface := surface, rooms := rooms, carrez := carrez) ORDER BY parcel, array_to_string(list_sort(lots), '|')) AS units
      FROM g WHERE n = 1 AND NOT EXISTS (SELECT 1 FROM lotuse l WHERE l.id_mutation = g.id_mutation AND l.parcel = g.parcel AND l.k > 1 AND list_contains(g.lots, l.lot))
      GROUP BY id_mutation),
    cz AS (SELECT id_mutation, sum(carrez) AS carrez_area FROM (SELECT DISTINCT id_mutation, parcel, x.lot AS lot, x.carrez AS carrez
      FROM (SELECT id_mutation, parcel, unnest(lot_carrez) AS x FROM locals WHERE local_type IN ('1', '2')) WHERE x.carrez IS NOT NULL) GROUP BY id_mutation),
    k AS (SELECT id_mutation,
      count(*) FILTER (WHERE local_type IN ('1', '2'))::INTEGER AS dwellings, count(*) FILTER (WHERE local_type = '1')::INTEGER AS houses,
      count(*) FILTER (WHERE local_type = '2')::INTEGER AS apartments, count(*) FILTER (WHERE local_type = '3')::INTEGER AS outbuildings,
      count(*) FILTER (WHERE local_type = '4')::INTEGER AS premises,
      sum(built_surface) FILTER (WHERE local_type IN ('1', '2')) AS surface, sum(rooms) FILTER (WHERE local_type IN ('1', '2'))::INTEGER AS rooms
      FROM locals GROUP BY id_mutation),
    t AS (SELECT id_mutation, sum(land_surface) AS land_surface FROM (SELECT DISTINCT id_mutation, parcel, culture, special_culture, land_surface FROM ${lines} WHERE land_surface IS NOT NULL) GROUP BY id_mutation),
    d AS (SELECT id_mutation, disposition, max(value) AS value FROM ${lines} GROUP BY id_mutation, disposition),
    v AS (SELECT id_mutation, CASE WHEN count(DISTINCT value) <= 1 THEN max(value) ELSE sum(value) END AS price FROM d GROUP BY id_mutation),
    lt AS (SELECT id_mutation, list(DISTINCT lot ORDER BY lot) AS lots FROM (SELECT id_mutation, unnest(lots) AS lot FROM ${lines}) GROUP BY id_mutation),
    m AS (SELECT id_mutation, min(date) AS date, arg_min(nature, line) AS nature, coalesce(list(DISTINCT parcel ORDER BY parcel) FILTER (WHERE parcel IS NOT NULL), []) AS parcels,
      arg_min(nullif(concat_ws(' ', nullif(concat_ws(' ', number, suffix), ''), street, postcode, commune_name), ''), line) AS address,
      arg_min(code_commune, line) AS code_commune, arg_min(code_departement, line) AS code_departement,
      -- The first parcel centre published, else the first address found in the BAN.
      arg_min(lng, ${POSITION_ORDER}) FILTER (WHERE lng IS NOT NULL AND lat IS NOT NULL) AS lng, arg_min(lat, ${POSITION_ORDER}) FILTER (WHERE lng IS NOT NULL AND lat IS NOT NULL) AS lat,
      arg_min(position_source, ${POSITION_ORDER}) FILTER (WHERE lng IS NOT NULL AND lat IS NOT NULL) AS position_source
      FROM ${lines} GROUP BY id_mutation),
    r AS (SELECT * FROM (VALUES ${regions}) AS r(department, region))
    SELECT ${Object.entries(columns).map(([k, e]) => `CAST(${e} AS ${SALE_COLUMNS[k as keyof typeof SALE_COLUMNS]}) AS ${k}`).join(',\n      ')}
    FROM m JOIN v USING (id_mutation) LEFT JOIN k USING (id_mutation) LEFT JOIN t USING (id_mutation) LEFT JOIN lt USING (id_mutation)
    LEFT JOIN un USING (id_mutation) LEFT JOIN cz USING (id_mutation) LEFT JOIN r ON r.department = m.code_departement`;
}
