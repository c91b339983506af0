import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readFeatures, type FeatureRow } from '../../../../ingest/core/readers/features.ts';
import { crsFromWkt } from '../../../../ingest/core/readers/prj.ts';
import { LDID_ENCODINGS, resolveDbfEncoding } from '../../../../ingest/core/readers/dbf.ts';
import { reprojectGeometry, toWgs84 } from '../../../../ingest/core/reproject.ts';
import { writeShapefile, writeZip, type ShapefileSpec } from './shapefile-writer.ts';

const dir = mkdtempSync(join(tmpdir(), 'features-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function all(path: string, opts: Parameters<typeof readFeatures>[1] = {}): Promise<FeatureRow[]> {
  const out: FeatureRow[] = [];
  for await (const r of readFeatures(path, opts)) out.push(r);
  return out;
}

const LAMBERT93_WKT =
  'PROJCS["RGF_1993_Lambert_93",GEOGCS["GCS_RGF_1993",DATUM["D_RGF_1993",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]],PROJECTION["Lambert_Conformal_Conic"],PARAMETER["False_Easting",700000.0],PARAMETER["False_Northing",6600000.0],PARAMETER["Central_Meridian",3.0],PARAMETER["Standard_Parallel_1",49.0],PARAMETER["Standard_Parallel_2",44.0],PARAMETER["Latitude_Of_Origin",46.5],UNIT["Meter",1.0]]';

describe('GeoJSON', () => {
  it('streams a FeatureCollection with a crs member (coordinates before type)', async () => {
    const p = join(dir, 'l93.geojson');
    writeFileSync(
      p,
      JSON.stringify({
        type: 'FeatureCollection',
        name: 'adresses',
        crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::2154' } },
        features: [
          { type: 'Feature', properties: { nom: 'Rue Gérard', s: 'a "quoted" \\ {x}' }, geometry: { coordinates: [652478.29, 6859057.21], type: 'Point' } },
          { geometry: { coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]], type: 'Polygon' }, properties: { nom: 'carré ]}' }, type: 'Feature' },
          { type: 'Feature', geometry: null, properties: null },
        ],
      }),
    );
    const rows = await all(p);
    expect(rows.map((r) => r.index)).toEqual([1, 2, 3]);
    expect(rows.every((r) => r.crs === 'EPSG:2154')).toBe(true);
    expect(rows[0].feature.properties).toEqual({ nom: 'Rue Gérard', s: 'a "quoted" \\ {x}' });
    expect(rows[1].feature.geometry).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] });
    expect(rows[1].feature.properties).toEqual({ nom: 'carré ]}' });
    const g = reprojectGeometry(rows[0].feature.geometry!, toWgs84(rows[0].crs));
    expect(g).toEqual({ type: 'Point', coordinates: [2.352659, 48.829819] });
  });

  it('gives EPSG:4326 for CRS84, null without crs, and finds a crs written after features', async () => {
    const crs84 = join(dir, 'crs84.json');
    writeFileSync(crs84, `{"type":"FeatureCollection","crs":{"type":"name","properties":{"name":"urn:ogc:def:crs:OGC:1.3:CRS84"}},"features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[2,48]}}]}`);
    expect((await all(crs84))[0].crs).toBe('EPSG:4326');
    const none = join(dir, 'none.geojson');
    writeFileSync(none, `{"features":[{"type":"Feature","properties":{"a":1},"geometry":{"type":"Point","coordinates":[2,48]}}],"type":"FeatureCollection"}`);
    expect((await all(none))[0].crs).toBeNull();
    const late = join(dir, 'late.geojson');
    writeFileSync(late, `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[1,2]}}],"crs":{"type":"name","properties":{"name":"EPSG:31370"}}}`);
    expect((await all(late))[0].crs).toBe('EPSG:31370');
  });

  it('accepts a single Feature, a bare geometry, newline-delimited features and gzip', async () => {
    const single = join(dir, 'single.geojson');
    writeFileSync(single, '{"type":"Feature","properties":{"x":1},"geometry":{"type":"Point","coordinates":[1,2]}}');
    expect((await all(single)).map((r) => r.feature.properties)).toEqual([{ x: 1 }]);
    const geom = join(dir, 'geom.json');
    writeFileSync(geom, '{"coordinates":[1,2],"type":"Point"}');
    expect((await all(geom))[0].feature).toEqual({ type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [1, 2] } });
    const seq = join(dir, 'seq.geojson');
    writeFileSync(seq, '{"type":"Feature","properties":{"i":1},"geometry":null}\n{"type":"Feature","properties":{"i":2},"geometry":null}\n');
    expect((await all(seq)).map((r) => r.feature.properties!.i)).toEqual([1, 2]);
    const gz = join(dir, 'many.geojson.gz');
    const features = Array.from({ length: 20000 }, (_, i) => ({ type: 'Feature', properties: { i, s: 'é"\\' }, geometry: { type: 'Point', coordinates: [i, i] } }));
    writeFileSync(gz, gzipSync(JSON.stringify({ type: 'FeatureCollection', features })));
    const rows = await all(gz);
    expect(rows).toHaveLength(20000);
    // The bytes read are the gzip file's, as stored: what a job's share of the file is made of.
    expect(rows[19999]).toEqual({ index: 20000, crs: null, feature: features[19999], bytes: { read: statSync(gz).size, total: statSync(gz).size } });
  });

  it('rejects a truncated file', async () => {
    const p = join(dir, 'trunc.geojson');
    writeFileSync(p, '{"type":"FeatureCollection","features":[{"type":"Feature","properties":{}');
    await expect(all(p)).rejects.toThrow(/unexpected end/);
  });
});

const square = (x: number, y: number, d: number): [number, number][][] => [
  [
    [x, y],
    [x, y + d],
    [x + d, y + d],
    [x + d, y],
    [x, y],
  ],
];

function quebecSpec(base: string): ShapefileSpec {
  return {
    base,
    geometries: [
      { type: 'Point', coordinates: [-73.5673, 45.5017] },
      { type: 'Point', coordinates: [-71.2082, 46.8139] },
    ],
    fields: [
      { name: 'NOM', type: 'C', length: 20 },
      { name: 'POP', type: 'N', length: 10 },
    ],
    rows: [
      ['Montréal', 1762949],
      ['Québec', 549459],
    ],
    encoding: 'cp850',
  };
}

describe('shapefile', () => {
  it('reads points with cp850 attributes when encoding is given (no .cpg)', async () => {
    const base = join(dir, 'villes');
    writeShapefile(quebecSpec(base));
    const rows = await all(`${base}.shp`, { encoding: 'cp850' });
    // A file smaller than one read chunk is read whole with its first record.
    const bytes = { read: statSync(`${base}.shp`).size, total: statSync(`${base}.shp`).size };
    expect(rows).toEqual([
      { index: 1, crs: null, bytes, feature: { type: 'Feature', properties: { NOM: 'Montréal', POP: 1762949 }, geometry: { type: 'Point', coordinates: [-73.5673, 45.5017] } } },
      { index: 2, crs: null, bytes, feature: { type: 'Feature', properties: { NOM: 'Québec', POP: 549459 }, geometry: { type: 'Point', coordinates: [-71.2082, 46.8139] } } },
    ]);
  });

  it('uses the language driver byte, then the .cpg, for the DBF encoding', async () => {
    const ldid = join(dir, 'ldid');
    writeShapefile({ ...quebecSpec(ldid), ldid: 0x1d }); // French OEM cp850
    expect((await all(`${ldid}.shp`)).map((r) => r.feature.properties!.NOM)).toEqual(['Montréal', 'Québec']);

    const cpg = join(dir, 'cpg');
    writeShapefile({ ...quebecSpec(cpg), encoding: 'windows-1252', ldid: 0x1d, cpg: '1252' }); // .cpg wins over LDID
    expect((await all(`${cpg}.shp`)).map((r) => r.feature.properties!.NOM)).toEqual(['Montréal', 'Québec']);

    const utf = join(dir, 'utf8');
    writeShapefile({ ...quebecSpec(utf), encoding: 'utf-8', cpg: 'UTF-8' });
    expect((await all(`${utf}.shp`)).map((r) => r.feature.properties!.NOM)).toEqual(['Montréal', 'Québec']);

    const undeclared = join(dir, 'undeclared');
    writeShapefile({ ...quebecSpec(undeclared), encoding: 'windows-1252' }); // nothing declared, not UTF-8
    expect((await all(`${undeclared}.shp`)).map((r) => r.feature.properties!.NOM)).toEqual(['Montréal', 'Québec']);

    expect(resolveDbfEncoding(undefined, 'ISO-8859-1', 0)).toEqual({ encoding: 'windows-1252', source: 'cpg' });
    expect(resolveDbfEncoding('cp850', 'UTF-8', 0x57)).toEqual({ encoding: 'cp850', source: 'option' });
    expect(resolveDbfEncoding(undefined, null, 0x57)).toEqual({ encoding: 'windows-1252', source: 'ldid' });
    expect(resolveDbfEncoding(undefined, 'OEM', 0x02)).toEqual({ encoding: 'cp850', source: 'ldid' });
    expect(LDID_ENCODINGS[0x03]).toBe('windows-1252');
  });

  it('reads polygons (with a hole) and the CRS from the .prj', async () => {
    const base = join(dir, 'COMMUNE');
    const outer = square(650000, 6850000, 1000)[0]; // clockwise
    const hole = [...square(650200, 6850200, 100)[0]].reverse(); // counter-clockwise
    writeShapefile({
      base,
      geometries: [
        { type: 'Polygon', coordinates: [outer, hole] },
        { type: 'Polygon', coordinates: square(660000, 6860000, 500) },
      ],
      fields: [{ name: 'INSEE_COM', type: 'C', length: 5 }],
      rows: [['75113'], ['75112']],
      prj: LAMBERT93_WKT,
      cpg: 'UTF-8',
      upperExt: true,
    });
    const rows = await all(`${base}.SHP`);
    expect(rows).toHaveLength(2);
    expect(rows[0].crs).toBe('EPSG:2154');
    expect(rows[0].feature.geometry).toEqual({ type: 'Polygon', coordinates: [outer, hole] });
    expect(rows[1].feature.properties).toEqual({ INSEE_COM: '75112' });
  });

  it('reads a zip with several shapefiles by layer, and a folder', async () => {
    const sub = join(dir, 'zipsrc');
    mkdirSync(sub);
    writeShapefile({ ...quebecSpec(join(sub, 'villes')), ldid: 0x02 });
    writeShapefile({
      base: join(sub, 'COMMUNE'),
      geometries: [{ type: 'Polygon', coordinates: square(650000, 6850000, 1000) }],
      fields: [{ name: 'NOM', type: 'C', length: 20 }],
      rows: [['Paris 13e']],
      prj: LAMBERT93_WKT,
    });
    const members: Record<string, Buffer> = {};
    for (const ext of ['shp', 'shx', 'dbf']) members[`data/villes.${ext}`] = readFileSync(join(sub, `villes.${ext}`));
    for (const ext of ['shp', 'shx', 'dbf', 'prj']) members[`data/COMMUNE.${ext}`] = readFileSync(join(sub, `COMMUNE.${ext}`));
    const zip = join(dir, 'layers.zip');
    writeZip(zip, members);

    await expect(all(zip)).rejects.toThrow(/several layers \((villes, COMMUNE|COMMUNE, villes)\).*layer/);
    await expect(all(zip, { layer: 'nope' })).rejects.toThrow(/Layer 'nope' not found.*villes/);
    const communes = await all(zip, { layer: 'commune' });
    expect(communes.map((r) => [r.crs, r.feature.properties])).toEqual([['EPSG:2154', { NOM: 'Paris 13e' }]]);
    const villes = await all(zip, { layer: 'VILLES' });
    expect(villes.map((r) => r.feature.properties!.NOM)).toEqual(['Montréal', 'Québec']);

    const single = join(dir, 'single.zip');
    writeZip(single, { 'villes.shp': members['data/villes.shp'], 'villes.shx': members['data/villes.shx'], 'villes.dbf': members['data/villes.dbf'] });
    expect(await all(single, { encoding: 'cp850' })).toHaveLength(2);

    expect((await all(sub, { layer: 'Commune' }))[0].feature.properties).toEqual({ NOM: 'Paris 13e' });
    await expect(all(sub)).rejects.toThrow(/several layers/);
  });

  it('stops cleanly when the consumer breaks early', async () => {
    const base = join(dir, 'early');
    writeShapefile(quebecSpec(base));
    for await (const r of readFeatures(`${base}.shp`, {})) {
      expect(r.index).toBe(1);
      break;
    }
  });
});

describe('prj', () => {
  it('maps WKT to EPSG codes', () => {
    expect(crsFromWkt(LAMBERT93_WKT)).toBe('EPSG:2154');
    expect(crsFromWkt('GEOGCS["GCS_North_American_1983",DATUM["D_North_American_1983",SPHEROID["GRS_1980",6378137.0,298.257222101]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]')).toBe('EPSG:4269');
    expect(crsFromWkt('PROJCS["NAD_1983_Quebec_Lambert",GEOGCS["GCS_North_American_1983"]]')).toBe('EPSG:32198');
    expect(crsFromWkt('PROJCS["Belge_1972_Belgian_Lambert_72",GEOGCS["GCS_Belge_1972"]]')).toBe('EPSG:31370');
    expect(crsFromWkt('PROJCS["ETRS_1989_Belgian_Lambert_2008",GEOGCS["GCS_ETRS_1989"]]')).toBe('EPSG:3812');
    expect(crsFromWkt('PROJCS["NAD_1983_Statistics_Canada_Lambert",GEOGCS["GCS_North_American_1983"]]')).toBe('EPSG:3347');
    expect(crsFromWkt('GEOGCS["GCS_North_American_1983_CSRS",DATUM["D_North_American_1983_CSRS"]]')).toBe('EPSG:4617');
    expect(crsFromWkt('GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984"]]')).toBe('EPSG:4326');
    expect(crsFromWkt('GEOGCS["GCS_RGF_1993",DATUM["D_RGF_1993"]]')).toBe('EPSG:4171');
    expect(crsFromWkt('PROJCS["RGR_1992_UTM_Zone_40S",GEOGCS["GCS_RGR_1992"]]')).toBe('EPSG:2975');
    expect(crsFromWkt('PROJCS["RGM04 / UTM zone 38S",GEOGCS["RGM04"]]')).toBe('EPSG:4471');
    expect(crsFromWkt('PROJCS["RGFG95 / UTM zone 22N",GEOGCS["RGFG95"]]')).toBe('EPSG:2972');
    expect(crsFromWkt('PROJCS["RGAF09 / UTM zone 20N",GEOGCS["RGAF09"]]')).toBe('EPSG:5490');
    // the root authority wins; nested ones are ignored
    expect(crsFromWkt('PROJCS["whatever",GEOGCS["RGF93",AUTHORITY["EPSG","4171"]],AUTHORITY["EPSG","2154"]]')).toBe('EPSG:2154');
    expect(crsFromWkt('PROJCRS["x",BASEGEOGCRS["y"],ID["EPSG",3812]]')).toBe('EPSG:3812');
    // unknown: the WKT itself, which toWgs84 hands to proj4
    const unknown = 'PROJCS["Custom",GEOGCS["GCS_WGS_1984",AUTHORITY["EPSG","4326"]]]';
    expect(crsFromWkt(unknown)).toBe(unknown);
    expect(crsFromWkt('  ')).toBeNull();
  });
});

const REAL = '/work/shared/realdata';

describe.skipIf(!existsSync(REAL))('real producer files', () => {
  it('Quebec SDA regions (shapefile, DBF in cp850 via language driver 0x1D, NAD83)', async () => {
    const rows = await all(join(REAL, 'ca/quebec_regions_sda_regio_s/'));
    expect(rows).toHaveLength(21); // SOURCE.txt: 21 records
    expect(new Set(rows.map((r) => r.feature.properties!.RES_CO_REG)).size).toBe(17);
    expect(rows.every((r) => r.crs === 'EPSG:4269')).toBe(true);
    const names = new Set(rows.map((r) => r.feature.properties!.RES_NM_REG as string));
    expect(names).toContain('Côte-Nord');
    expect(names).toContain('Gaspésie - Îles-de-la-Madeleine');
    expect(names).toContain('Saguenay - Lac-Saint-Jean');
    expect(rows[0].feature.properties!.RES_DE_IND).toBe('Région administrative');
    expect(rows.every((r) => r.feature.geometry?.type === 'Polygon')).toBe(true);
  });

  it('Flemish + Brussels municipalities (Lambert 72 shapefile, .cpg UTF-8)', async () => {
    const rows = await all(join(REAL, 'be/municipalities_flanders_brussels_2024/gemeente2024.shp'));
    expect(rows).toHaveLength(319); // SOURCE.txt: 319 records
    expect(rows[0].crs).toBe('EPSG:31370');
    const brussels = rows.filter((r) => String(r.feature.properties!.gemeente).startsWith('21'));
    expect(brussels).toHaveLength(19);
    const brussel = rows.find((r) => r.feature.properties!.gemeente === 21004)!;
    expect(brussel.feature.properties!.naam).toBe('Brussel');
    // The Grand-Place (4.3525 E, 50.8467 N) lies inside the reprojected Brussel polygon.
    const g = reprojectGeometry(brussel.feature.geometry!, toWgs84(brussel.crs));
    const polys = g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
    expect(polys.some((p) => pointInRing([4.3525, 50.8467], p[0]))).toBe(true);
  });

  it('Paris arrondissements (GeoJSON, coordinates before type)', async () => {
    const rows = await all(join(REAL, 'fr/boundaries/paris_arrondissements_opendataparis.geojson'));
    expect(rows).toHaveLength(20); // SOURCE.txt: 20 Polygon features
    expect(rows.every((r) => r.crs === null && r.feature.geometry?.type === 'Polygon')).toBe(true);
    expect(rows.map((r) => r.feature.properties!.c_ar).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const treizieme = rows.find((r) => r.feature.properties!.c_arinsee === 75113)!;
    expect(treizieme.feature.properties!.l_ar).toBe('13ème Ardt');
    expect(treizieme.feature.properties!.l_aroff).toBe('Gobelins');
  });
});

function pointInRing(pt: [number, number], ring: number[][]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > pt[1] !== yj > pt[1] && pt[0] < ((xj - xi) * (pt[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}
