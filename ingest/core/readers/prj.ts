/**
 * CRS identification from a shapefile `.prj` (WKT1, OGC or ESRI flavour; WKT2 tolerated).
 *
 * `crsFromWkt(wkt)` returns:
 * 1. `EPSG:NNNN` from the root node's own `AUTHORITY["EPSG","NNNN"]` (WKT1) or
 *    `ID["EPSG",NNNN]` (WKT2) - authorities of nested nodes (GEOGCS, UNIT...) are ignored;
 * 2. else `EPSG:NNNN` when the root PROJCS/GEOGCS name is a known one (table below,
 *    compared case-insensitively, ignoring every non-alphanumeric character);
 * 3. else the WKT itself (trimmed): proj4 can parse WKT, so `toWgs84` accepts it as is;
 * 4. null for an empty/blank file.
 */

/** Normalized name -> EPSG code. Names are normalized with `normName`. */
const NAME_TO_EPSG: Record<string, number> = {};

function register(code: number, ...names: string[]): void {
  for (const n of names) NAME_TO_EPSG[normName(n)] = code;
}

function normName(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]/g, '');
}

// Projected
register(2154, 'RGF93 / Lambert-93', 'RGF93 v1 / Lambert-93', 'RGF_1993_Lambert_93', 'RGF93_Lambert_93', 'Lambert_93', 'Lambert-93');
register(5490, 'RGAF09 / UTM zone 20N', 'RGAF09_UTM_Zone_20N');
register(2972, 'RGFG95 / UTM zone 22N', 'RGFG_1995_UTM_Zone_22N', 'RGFG95_UTM_Zone_22N');
register(2975, 'RGR92 / UTM zone 40S', 'RGR_1992_UTM_Zone_40S', 'RGR92_UTM_Zone_40S');
register(4471, 'RGM04 / UTM zone 38S', 'RGM_2004_UTM_Zone_38S', 'RGM04_UTM_Zone_38S');
register(31370, 'Belge 1972 / Belgian Lambert 72', 'Belge_1972_Belgian_Lambert_72', 'Belge_Lambert_1972', 'BD72 / Belgian Lambert 72', 'Belgian Lambert 72');
register(3812, 'ETRS89 / Belgian Lambert 2008', 'ETRS_1989_Belgian_Lambert_2008', 'Belgian_Lambert_2008', 'Belgian Lambert 2008');
register(32198, 'NAD83 / Quebec Lambert', 'NAD_1983_Quebec_Lambert');
register(3347, 'NAD83 / Statistics Canada Lambert', 'NAD_1983_Statistics_Canada_Lambert');
register(3857, 'WGS 84 / Pseudo-Mercator', 'WGS_1984_Web_Mercator_Auxiliary_Sphere', 'Popular Visualisation CRS / Mercator');
// Geographic
register(4326, 'WGS 84', 'WGS84', 'GCS_WGS_1984', 'WGS_1984');
register(4171, 'RGF93', 'RGF93 v1', 'GCS_RGF_1993', 'RGF_1993');
register(4269, 'NAD83', 'GCS_North_American_1983', 'North_American_Datum_1983');
register(4617, 'NAD83(CSRS)', 'GCS_North_American_1983_CSRS', 'NAD83_CSRS', 'NAD83 Canadian Spatial Reference System');

/** Root node of a WKT: keyword, first (name) string, and its direct children. */
type WktNode = { keyword: string; args: (string | number | WktNode)[] };

/** Minimal WKT parser (brackets or parentheses). Returns null when unparsable. */
export function parseWkt(wkt: string): WktNode | null {
  let i = 0;
  const s = wkt;
  const ws = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  const node = (): WktNode | null => {
    ws();
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(s.slice(i, i + 64));
    if (!m) return null;
    i += m[0].length;
    ws();
    const open = s[i];
    if (open !== '[' && open !== '(') return { keyword: m[0].toUpperCase(), args: [] };
    const close = open === '[' ? ']' : ')';
    i++;
    const args: WktNode['args'] = [];
    for (;;) {
      ws();
      const c = s[i];
      if (c === undefined) return null;
      if (c === close) {
        i++;
        break;
      }
      if (c === ',') {
        i++;
        continue;
      }
      if (c === '"') {
        let j = i + 1;
        let str = '';
        for (;;) {
          const q = s.indexOf('"', j);
          if (q === -1) return null;
          if (s[q + 1] === '"') {
            str += s.slice(j, q + 1);
            j = q + 2;
            continue;
          }
          str += s.slice(j, q);
          i = q + 1;
          break;
        }
        args.push(str);
        continue;
      }
      const num = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?/.exec(s.slice(i, i + 64));
      if (num) {
        args.push(Number(num[0]));
        i += num[0].length;
        continue;
      }
      const child = node();
      if (!child) return null;
      args.push(child);
    }
    return { keyword: m[0].toUpperCase(), args };
  };
  return node();
}

/** `EPSG:NNNN` for a known CRS name (PROJCS/GEOGCS name), else null. */
export function epsgFromCrsName(name: string): string | null {
  const code = NAME_TO_EPSG[normName(name)];
  return code ? `EPSG:${code}` : null;
}

export function crsFromWkt(wkt: string): string | null {
  const text = wkt.replace(/^\uFEFF/, '').trim();
  if (text === '') return null;
  const root = parseWkt(text);
  if (!root) return text;
  for (const a of root.args) {
    if (typeof a === 'object' && (a.keyword === 'AUTHORITY' || a.keyword === 'ID')) {
      const [auth, code] = a.args;
      if (typeof auth === 'string' && auth.toUpperCase() === 'EPSG' && code !== undefined && /^\d+$/.test(String(code))) {
        return `EPSG:${code}`;
      }
    }
  }
  const name = root.args[0];
  if (typeof name === 'string') {
    const byName = epsgFromCrsName(name);
    if (byName) return byName;
  }
  return text;
}
