/**
 * Checks of the French sample datasets (datasets/fr): BAN CSV layout, shapefile schemas, nesting
 * of the administrative levels, and the hard requirement that every BAN sample point falls inside
 * the polygon of its own code (arrondissement / commune / IRIS).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import * as shapefile from 'shapefile';
import proj4 from 'proj4';
import * as turf from '@turf/turf';
import type { Feature, MultiPolygon, Polygon, Position } from 'geojson';

const ROOT = join(import.meta.dirname, '../../../datasets/fr');

proj4.defs('EPSG:2154', '+proj=lcc +lat_0=46.5 +lon_0=3 +lat_1=49 +lat_2=44 +x_0=700000 +y_0=6600000 +ellps=GRS80 +units=m +no_defs');
proj4.defs('EPSG:2975', '+proj=utm +zone=40 +south +ellps=GRS80 +units=m +no_defs');

type Area = Feature<Polygon | MultiPolygon, Record<string, string | number>>;

async function readLayer(path: string, crs: string): Promise<Area[]> {
  const source = await shapefile.open(`${path}.shp`, `${path}.dbf`, { encoding: 'utf-8' });
  const out: Area[] = [];
  const toWgs = (p: Position) => proj4(crs, 'EPSG:4326', [p[0], p[1]]);
  for (;;) {
    const r = await source.read();
    if (r.done) break;
    const f = r.value as unknown as Area;
    const g = f.geometry;
    const geometry =
      g.type === 'Polygon'
        ? { type: 'Polygon' as const, coordinates: g.coordinates.map((ring) => ring.map(toWgs)) }
        : { type: 'MultiPolygon' as const, coordinates: g.coordinates.map((poly) => poly.map((ring) => ring.map(toWgs))) };
    out.push({ ...f, geometry });
  }
  return out;
}

const HEADER =
  'id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;code_insee_ancienne_commune;nom_ancienne_commune;x;y;lon;lat;type_position;alias;nom_ld;libelle_acheminement;nom_afnor;source_position;source_nom_voie;certification_commune;cad_parcelles';

interface Row {
  [k: string]: string;
}
function readBan(name: string): Row[] {
  const text = readFileSync(join(ROOT, 'ban', name), 'utf8');
  const lines = text.split('\n');
  expect(lines.pop()).toBe('');
  const cols = lines[0].split(';');
  return lines.slice(1).map((l) => {
    const cells = l.split(';');
    expect(cells).toHaveLength(23);
    return Object.fromEntries(cols.map((c, i) => [c, cells[i]]));
  });
}

function inside(lon: number, lat: number, f: Area): boolean {
  return turf.booleanPointInPolygon(turf.point([lon, lat]), f);
}

describe('BAN samples', () => {
  for (const [file, crs, minRows] of [
    ['adresses-75.csv', 'EPSG:2154', 150],
    ['adresses-33.csv', 'EPSG:2154', 30],
    ['adresses-974.csv', 'EPSG:2975', 8],
  ] as const) {
    it(`${file} has the BAN departmental layout`, () => {
      const buf = readFileSync(join(ROOT, 'ban', file));
      expect(buf.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
      const text = buf.toString('utf8');
      expect(text.includes('\r')).toBe(false);
      expect(text.includes('"')).toBe(false);
      expect(text.split('\n')[0]).toBe(HEADER);
      const rows = readBan(file);
      expect(rows.length).toBeGreaterThanOrEqual(minRows);
      const ids = new Set<string>();
      for (const r of rows) {
        expect(ids.has(r.id)).toBe(false);
        ids.add(r.id);
        const suffix = r.rep ? `_${r.rep}` : '';
        expect(r.id).toBe(`${r.id_fantoir}_${r.numero.padStart(5, '0')}${suffix}`);
        expect(r.id_fantoir).toMatch(new RegExp(`^${r.code_insee}_[0-9A-Z]{4}$`));
        expect(r.nom_afnor).toMatch(/^[A-Z0-9 ]{1,32}$/);
        expect(['0', '1']).toContain(r.certification_commune);
        if (r.cad_parcelles) expect(r.cad_parcelles).toMatch(new RegExp(`^${r.code_insee}000[A-Z]{2}\\d{4}$`));
        expect(r.lon).toMatch(/^-?\d+(\.\d{1,6})?$/);
        const [x, y] = proj4('EPSG:4326', crs, [Number(r.lon), Number(r.lat)]);
        expect(Math.abs(x - Number(r.x))).toBeLessThan(0.02);
        expect(Math.abs(y - Number(r.y))).toBeLessThan(0.02);
      }
    });
  }

  it('has bis/ter suffixes and a street spanning two arrondissements', () => {
    const rows = readBan('adresses-75.csv');
    const reps = new Set(rows.map((r) => r.rep));
    expect(reps).toContain('b');
    expect(reps).toContain('t');
    const fsa = new Set(rows.filter((r) => r.nom_voie === 'Rue du Faubourg Saint-Antoine').map((r) => r.code_insee));
    expect([...fsa].sort()).toEqual(['75111', '75112']);
    const beaumarchais = new Set(rows.filter((r) => r.nom_voie === 'Boulevard Beaumarchais').map((r) => r.code_insee));
    expect([...beaumarchais].sort()).toEqual(['75103', '75104', '75111']);
  });
});

describe('ADMIN EXPRESS and CONTOURS-IRIS samples', () => {
  let arm: Area[];
  let com: Area[];
  let dep: Area[];
  let reg: Area[];
  let iris: Area[];
  let com974: Area[];
  let dep974: Area[];
  let reg974: Area[];

  beforeAll(async () => {
    const ae = join(ROOT, 'admin-express');
    arm = await readLayer(join(ae, 'ARRONDISSEMENT_MUNICIPAL'), 'EPSG:2154');
    com = await readLayer(join(ae, 'COMMUNE'), 'EPSG:2154');
    dep = await readLayer(join(ae, 'DEPARTEMENT'), 'EPSG:2154');
    reg = await readLayer(join(ae, 'REGION'), 'EPSG:2154');
    iris = await readLayer(join(ROOT, 'contours-iris', 'CONTOURS-IRIS'), 'EPSG:2154');
    const ae974 = join(ROOT, 'admin-express-974');
    com974 = await readLayer(join(ae974, 'COMMUNE'), 'EPSG:2975');
    dep974 = await readLayer(join(ae974, 'DEPARTEMENT'), 'EPSG:2975');
    reg974 = await readLayer(join(ae974, 'REGION'), 'EPSG:2975');
  });

  it('has the published attribute columns', () => {
    expect(Object.keys(com[0].properties)).toEqual(['ID', 'NOM', 'NOM_M', 'INSEE_COM', 'STATUT', 'POPULATION', 'INSEE_CAN', 'INSEE_ARR', 'INSEE_DEP', 'INSEE_REG', 'SIREN_EPCI']);
    expect(Object.keys(arm[0].properties)).toEqual(['ID', 'NOM', 'NOM_M', 'INSEE_ARM', 'INSEE_COM', 'POPULATION']);
    expect(Object.keys(dep[0].properties)).toEqual(['ID', 'NOM', 'NOM_M', 'INSEE_DEP', 'INSEE_REG']);
    expect(Object.keys(reg[0].properties)).toEqual(['ID', 'NOM', 'NOM_M', 'INSEE_REG']);
    expect(Object.keys(iris[0].properties)).toEqual(['INSEE_COM', 'NOM_COM', 'IRIS', 'CODE_IRIS', 'NOM_IRIS', 'TYP_IRIS']);
    expect(arm.map((f) => f.properties.INSEE_ARM).sort()).toEqual(Array.from({ length: 20 }, (_, i) => String(75101 + i)));
    expect(com.find((f) => f.properties.INSEE_COM === '75056')?.properties.NOM).toBe('Paris');
    expect(com974.map((f) => f.properties.INSEE_COM).sort()).toEqual(['97408', '97411', '97418']);
    for (const f of iris) {
      expect(f.properties.CODE_IRIS).toBe(`${f.properties.INSEE_COM}${f.properties.IRIS}`);
    }
    expect(iris.find((f) => f.properties.CODE_IRIS === '330010000')?.properties.TYP_IRIS).toBe('Z');
  });

  it('.prj and .cpg files describe the coordinate system and the encoding', () => {
    for (const dir of ['admin-express', 'contours-iris']) {
      const base = dir === 'contours-iris' ? 'CONTOURS-IRIS' : 'COMMUNE';
      expect(readFileSync(join(ROOT, dir, `${base}.prj`), 'utf8')).toMatch(/^PROJCS\["RGF93_Lambert_93"/);
      expect(readFileSync(join(ROOT, dir, `${base}.cpg`), 'utf8')).toBe('UTF-8');
    }
    expect(readFileSync(join(ROOT, 'admin-express-974', 'COMMUNE.prj'), 'utf8')).toMatch(/UTM_Zone_40S/);
  });

  it('levels nest: arrondissements and IRIS tile Paris, communes tile departments and regions', () => {
    const area = (fs: Area[]) => fs.reduce((s, f) => s + turf.area(f), 0);
    const paris = com.filter((f) => f.properties.INSEE_COM === '75056');
    expect(area(arm) / area(paris)).toBeCloseTo(1, 6);
    expect(area(iris.filter((f) => String(f.properties.INSEE_COM).startsWith('751'))) / area(paris)).toBeCloseTo(1, 6);
    expect(area(dep) / area(com)).toBeCloseTo(1, 6);
    expect(area(reg) / area(dep)).toBeCloseTo(1, 6);
    expect(area(reg974) / area(com974)).toBeCloseTo(1, 6);
    expect(area(dep974) / area(com974)).toBeCloseTo(1, 6);
    // every arrondissement lies in Paris (test a point inside each)
    for (const f of arm) {
      const p = turf.pointOnFeature(f).geometry.coordinates;
      expect(inside(p[0], p[1], paris[0])).toBe(true);
    }
  });

  it('every BAN point lies in the polygon of its own code, and in no other', () => {
    const failures: string[] = [];
    const check = (rows: Row[], layer: Area[], key: string, codeOf: (r: Row) => string) => {
      for (const r of rows) {
        const lon = Number(r.lon);
        const lat = Number(r.lat);
        const hits = layer.filter((f) => inside(lon, lat, f)).map((f) => String(f.properties[key]));
        if (hits.length !== 1 || hits[0] !== codeOf(r)) failures.push(`${r.id}: ${key} expected ${codeOf(r)}, got ${hits.join(',') || 'none'}`);
      }
    };
    const paris = readBan('adresses-75.csv');
    const gironde = readBan('adresses-33.csv');
    const reunion = readBan('adresses-974.csv');
    check(paris, arm, 'INSEE_ARM', (r) => r.code_insee);
    check(paris, com, 'INSEE_COM', () => '75056');
    check(paris, dep, 'INSEE_DEP', () => '75');
    check(paris, reg, 'INSEE_REG', () => '11');
    check(paris, iris, 'INSEE_COM', (r) => r.code_insee);
    check(gironde, com, 'INSEE_COM', (r) => r.code_insee);
    check(gironde, dep, 'INSEE_DEP', () => '33');
    check(gironde, reg, 'INSEE_REG', () => '75');
    check(gironde.filter((r) => r.code_insee === '33001'), iris, 'CODE_IRIS', () => '330010000');
    check(reunion, com974, 'INSEE_COM', (r) => r.code_insee);
    check(reunion, reg974, 'INSEE_REG', () => '04');
    expect(failures).toEqual([]);
  });

  it('border test points fall on the expected side', () => {
    const code = (lon: number, lat: number, layer: Area[], key: string) =>
      layer.filter((f) => inside(lon, lat, f)).map((f) => String(f.properties[key]));
    // boulevard Beaumarchais: odd side 3e, even side 11e
    expect(code(2.36745, 48.8597, arm, 'INSEE_ARM')).toEqual(['75103']);
    expect(code(2.36795, 48.8597, arm, 'INSEE_ARM')).toEqual(['75111']);
    // rue du Faubourg Saint-Antoine: odd side 11e, even side 12e
    expect(code(2.3815, 48.85065, arm, 'INSEE_ARM')).toEqual(['75111']);
    expect(code(2.3815, 48.85035, arm, 'INSEE_ARM')).toEqual(['75112']);
  });
});
