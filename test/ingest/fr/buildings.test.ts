import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ingestBuildings, polygonOfWkt } from '../../../ingest/fr/buildings.ts';
import { REPO_ROOT } from '../../../ingest/jobs.ts';
import { BuildingAttributes } from '../../../schemas/tables/buildings.ts';
import { idPattern } from '../../../schemas/tables/id-registry.ts';
import { duckRows } from '../../helpers/duckdb.ts';
import { silentContext } from '../../helpers/fixture-data.ts';
import { partitionPath } from '../../../schemas/tables/layout.ts';

const DIR = join(REPO_ROOT, 'datasets/fr/buildings');
const rnb = (dep: string) => ({ path: join(DIR, `RNB_${dep}.csv`) });
const bdnb = (dep: string) => ({ path: join(DIR, `bdnb_batiment_groupe_compile_${dep}.csv`) });
const owners = (dep: string) => ({ owners: { path: join(DIR, `bdnb_proprietaire_${dep}.csv`) }, links: { path: join(DIR, `bdnb_rel_batiment_groupe_proprietaire_${dep}.csv`) } });

describe('fr.buildings', () => {
  it('reads WKT footprints', () => {
    expect(polygonOfWkt('POLYGON ((0 0, 1 0, 1 1, 0 0))')).toEqual({ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] });
    expect(polygonOfWkt('SRID=4326;MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((2 2, 3 2, 3 3, 2 2)))')?.type).toBe('MultiPolygon');
    expect(polygonOfWkt('POINT (2 48)')).toBeNull();
  });

  it('joins the RNB and the BDNB by RNB id: ids of ours, every source value kept, links to addresses and parcels; demolished skipped', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-buildings-')), 'data');
    const out = await ingestBuildings(silentContext(dataDir), { rnb: rnb('75'), bdnb: bdnb('75') });
    expect(out.map((s) => [s.table, s.partition, s.rejects])).toEqual([['buildings', 'rnb-75', 0], ['buildings_cells', 'rnb-75', 0], ['building_links', 'rnb-75', 0]]);
    const published = (await readFile(rnb('75').path, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(';'));
    const standing = published.filter((c) => c[3] !== 'demolished');
    const rows = await duckRows<{ id: string; attributes: string }>(`SELECT id, attributes FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-75')}'`);
    expect(rows).toHaveLength(standing.length);
    expect(standing.length).toBeLessThan(published.length);
    const groups = new Map((await readFile(bdnb('75').path, 'utf8')).trim().split('\n').slice(1).map((l) => l.split(',')).map((c) => [c[3]!, c]));
    for (const r of rows) {
      expect(r.id).toMatch(idPattern('bld'));
      const a = BuildingAttributes.parse(JSON.parse(r.attributes));
      const g = groups.get(a.rnb_id);
      expect(a.bdnb_id).toBe(g?.[0] ?? null);
      expect(a.construction_year.map((v) => v.value)).toEqual(g ? [Number(g[6])] : []);
      expect(a.height_m.map((v) => v.source)).toEqual(g && g[12] ? ['fr.bdnb:bdtopo'] : []);
      expect(a.type).toBe(g ? 'apartment_building' : null);
    }
    const links = await duckRows<{ kind: string; n: number }>(`SELECT kind, count(*)::INTEGER AS n FROM '${partitionPath(dataDir, 'fr', 'building_links', 'rnb-75')}' GROUP BY kind ORDER BY kind`);
    expect(links).toEqual([{ kind: 'address', n: standing.length }, { kind: 'bdnb', n: rows.filter((r) => JSON.parse(r.attributes).bdnb_id).length }, { kind: 'parcel', n: rows.filter((r) => JSON.parse(r.attributes).bdnb_id).length }, { kind: 'rnb', n: standing.length }]);

    // Re-ingesting (the RNB alone, then with the BDNB) changes no id.
    const before = await duckRows<{ id: string; rnb: string }>(`SELECT id, json_extract_string(attributes, '$.rnb_id') AS rnb FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-75')}' ORDER BY rnb`);
    await ingestBuildings(silentContext(dataDir), { rnb: rnb('75') });
    await ingestBuildings(silentContext(dataDir), { rnb: rnb('75'), bdnb: bdnb('75') });
    expect(await duckRows(`SELECT id, json_extract_string(attributes, '$.rnb_id') AS rnb FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-75')}' ORDER BY rnb`)).toEqual(before);
  });

  it('refuses a row without footprint with its line, and a file lacking a column naming it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'lds-buildings-bad-'));
    const lines = (await readFile(rnb('33').path, 'utf8')).trim().split('\n');
    const bad = [...lines.slice(0, 30)];
    bad[2] = bad[2]!.replace(/;POLYGON \(\([^;]*\)\);/, ';POINT (-0.12 45.01);');
    await writeFile(join(dir, 'RNB_33.csv'), `${bad.join('\n')}\n`);
    const [s] = await ingestBuildings({ ...silentContext(join(dir, 'data')), maxRejectShare: 1 }, { rnb: { path: join(dir, 'RNB_33.csv') } });
    expect(s!.rejects).toBe(1);
    expect(await readFile(join(dir, 'data/fr/rejects/buildings.rnb-33.csv'), 'utf8')).toMatch(/^3;shape is not a WKT POLYGON/m);
    await writeFile(join(dir, 'other.csv'), 'rnb_id;point;status\nX;Y;Z\n');
    await expect(ingestBuildings(silentContext(join(dir, 'data2')), { rnb: { path: join(dir, 'other.csv') } })).rejects.toThrow(/missing columns shape, ext_ids, addresses/);
  });

  it('leaves heritage, electricity, social housing and owners absent (unavailable) for an export without their columns or tables, and refuses a distance that is not one', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-buildings-cols-'));
    const lines = (await readFile(bdnb('33').path, 'utf8')).trim().split('\n');
    // The 13 required columns only (the optional ones are the last four and hold no comma in Abzac).
    const bare = join(root, 'bdnb_bare.csv');
    await writeFile(bare, lines.map((l) => l.split(',').slice(0, 13).join(',')).join('\n') + '\n');
    const dataDir = join(root, 'data');
    await ingestBuildings(silentContext(dataDir), { rnb: rnb('33'), bdnb: { path: bare } });
    const rows = await duckRows<{ attributes: string }>(`SELECT attributes FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-33')}'`);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) {
      const a = BuildingAttributes.parse(JSON.parse(r.attributes));
      expect(a.historic_monument).toBeUndefined();
      expect(a.electricity_per_meter).toBeUndefined();
      expect(a.social_housing_dwellings).toBeUndefined();
      expect(a.legal_owners).toBeUndefined();
    }
    // With the columns, a distance that is not a number is refused with its line.
    const bad = join(root, 'bdnb_bad.csv');
    const [head, first, ...rest] = lines;
    const cells = first!.split(',');
    cells[13] = 'près';
    cells[14] = 'Église Saint-Pierre';
    await writeFile(bad, [head, cells.join(','), ...rest].join('\n') + '\n');
    const out = await ingestBuildings({ ...silentContext(join(root, 'data2')), maxRejectShare: 1 }, { rnb: rnb('33'), bdnb: { path: bad } });
    expect(out.find((s) => s.table === 'buildings')!.rejects).toBe(1);
    expect(await readFile(join(root, 'data2', 'fr', 'rejects', 'buildings.rnb-33.csv'), 'utf8')).toMatch(/^2;"BDNB: merimee_distance_batiment_historique_plus_proche ""près"" is not a distance";/m);
  });

  it('reads the RPLS dwellings and the legal-person owners of each group as the BDNB files give them', async () => {
    const dataDir = join(await mkdtemp(join(tmpdir(), 'lds-buildings-owners-')), 'data');
    const out = await ingestBuildings(silentContext(dataDir), { rnb: rnb('75'), bdnb: bdnb('75'), owners: owners('75') });
    expect(out.find((s) => s.table === 'buildings')!.rejects).toBe(0);
    const o = owners('75');
    // What the files say, read by DuckDB: the RPLS column of each group and its owners, most premises first.
    const social = new Map((await duckRows<{ rnb_id: string; n: number | null }>(
      `SELECT rnb_id, rpls_nb_log::INTEGER AS n FROM read_csv('${bdnb('75').path}', header = true, all_varchar = true)`)).map((r) => [r.rnb_id, r.n]));
    const want = await duckRows<{ g: string; owners: { name: string; siren: string | null; legal_form: string | null; premises: number }[] }>(
      `SELECT l.batiment_groupe_id AS g, list({ 'name': p.denomination, 'siren': p.siren, 'legal_form': p.forme_juridique, 'premises': l.nb_locaux_open::INTEGER } ORDER BY l.nb_locaux_open::INTEGER DESC, p.denomination) AS owners
       FROM read_csv('${o.links.path}', header = true, all_varchar = true) l JOIN read_csv('${o.owners.path}', header = true, all_varchar = true) p USING (personne_id) GROUP BY ALL`);
    const byGroup = new Map(want.map((w) => [w.g, w.owners]));
    const rows = await duckRows<{ attributes: string }>(`SELECT attributes FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-75')}'`);
    let socialSeen = 0, owned = 0, several = 0;
    for (const r of rows) {
      const a = BuildingAttributes.parse(JSON.parse(r.attributes));
      expect(a.social_housing_dwellings).toBe(a.bdnb_id ? social.get(a.rnb_id) ?? null : null);
      expect(a.legal_owners).toEqual(a.bdnb_id ? byGroup.get(a.bdnb_id) ?? [] : []);
      if (a.social_housing_dwellings) socialSeen++;
      if (a.legal_owners!.length > 0) owned++;
      if (a.legal_owners!.length > 1) several++;
    }
    expect([socialSeen, owned, several].every((n) => n > 2)).toBe(true);
  });

  it('refuses an RPLS count, a SIREN or a premises count that is not what the BDNB publishes, with its line and file', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-buildings-owners-bad-'));
    const [head, ...lines] = (await readFile(bdnb('33').path, 'utf8')).trim().split('\n');
    const cells = lines[0]!.split(',');
    cells[16] = '2.5';
    await writeFile(join(root, 'bdnb.csv'), [head, cells.join(','), ...lines.slice(1)].join('\n') + '\n');
    const [pHead, pFirst, ...pRest] = (await readFile(owners('33').owners.path, 'utf8')).trim().split('\n');
    const p = pFirst!.split(',');
    p[2] = '12345';
    await writeFile(join(root, 'proprietaire.csv'), [pHead, p.join(','), ...pRest].join('\n') + '\n');
    const [lHead, ...lRest] = (await readFile(owners('33').links.path, 'utf8')).trim().split('\n');
    const l = lRest.at(-1)!.split(',');
    l[2] = 'beaucoup';
    await writeFile(join(root, 'rel.csv'), [lHead, ...lRest.slice(0, -1), l.join(',')].join('\n') + '\n');
    const out = await ingestBuildings({ ...silentContext(join(root, 'data')), maxRejectShare: 1 }, {
      rnb: rnb('33'), bdnb: { path: join(root, 'bdnb.csv') }, owners: { owners: { path: join(root, 'proprietaire.csv') }, links: { path: join(root, 'rel.csv') } },
    });
    const rejects = await readFile(join(root, 'data', 'fr', 'rejects', 'buildings.rnb-33.csv'), 'utf8');
    expect(rejects).toMatch(/^2;"BDNB: rpls_nb_log ""2.5"" is not a whole number of dwellings";/m);
    expect(rejects).toMatch(/^2;"BDNB proprietaire: siren ""12345"" is not 9 digits";/m);
    expect(rejects).toMatch(new RegExp(`^${lRest.length + 1};"BDNB rel_batiment_groupe_proprietaire: nb_locaux_open ""beaucoup"" is not a whole number";`, 'm'));
    // The owner refused first takes its links with it: each is refused as naming an unknown person.
    const linksOfFirst = lRest.filter((x) => x.split(',')[1] === p[0]).length;
    expect(rejects.match(/is not in the proprietaire table/g)?.length ?? 0).toBe(linksOfFirst);
    expect(out.find((s) => s.table === 'buildings')!.rejects).toBe(3 + linksOfFirst);
  });

  it('stages the rows in DuckDB as a map and a first-come list would hold them: the later BDNB group of an RNB id, the first RNB row of a building, refusals in line order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-buildings-staged-'));
    const [rHead, ...rLines] = (await readFile(rnb('33').path, 'utf8')).trim().split('\n');
    const [gHead, ...gLines] = (await readFile(bdnb('33').path, 'utf8')).trim().split('\n');
    const grouped = new Set(gLines.map((l) => l.split(',')[3]));
    const loose = rLines.filter((l) => !grouped.has(l.split(';')[0]));
    expect(loose.length).toBeGreaterThan(1);
    const [homeless, joined] = [loose[0]!, loose[1]!];
    const twice = gLines[0]!.split(','), shared = gLines[1]!.split(',');
    // A later group for the first group's RNB id (its values win), and the second group naming a second RNB id too (one building).
    const later = [...twice]; later[0] = 'bdnb-bg-LATE-0000-0001'; later[6] = '1999';
    const also = [...shared]; also[3] = joined.split(';')[0]!;
    await writeFile(join(root, 'bdnb.csv'), [gHead, ...gLines, later.join(','), also.join(',')].join('\n') + '\n');
    // An RNB row without BAN address nor group (no department), and the first grouped row again (same RNB id).
    const rows = rLines.map((l) => (l === homeless ? l.replace(/;"\[[^;]*\]"$/, ';"[]"') : l));
    const again = rLines.find((l) => l.startsWith(`${twice[3]};`))!;
    await writeFile(join(root, 'RNB_33.csv'), [rHead, ...rows, again].join('\n') + '\n');
    const dataDir = join(root, 'data');
    const out = await ingestBuildings({ ...silentContext(dataDir), maxRejectShare: 1 }, { rnb: { path: join(root, 'RNB_33.csv') }, bdnb: { path: join(root, 'bdnb.csv') } });
    const lineOf = (l: string) => rows.indexOf(l) + 2;
    const [first, second] = [lineOf(rLines.find((l) => l.startsWith(`${shared[3]};`))!), lineOf(joined)].sort((a, b) => a - b);
    const firstRnb = rows[first! - 2]!.split(';')[0];
    const want = [
      [lineOf(rows.find((l) => l.startsWith(homeless.split(';')[0]!))!), 'no department: neither a BDNB group nor a BAN address names one'],
      [second!, `same building as RNB ${firstRnb} (one id of ours: the sources name them together)`],
      [rows.length + 2, `same building as RNB ${twice[3]} (one id of ours: the sources name them together)`],
    ].sort((a, b) => (a[0] as number) - (b[0] as number));
    const rejects = (await readFile(join(dataDir, 'fr', 'rejects', 'buildings.rnb-33.csv'), 'utf8')).trim().split('\n').slice(1);
    expect(rejects.map((l) => l.split(';').slice(0, 2).join(';'))).toEqual(want.map(([l, why]) => `${l};${/[;"]/.test(why as string) ? `"${why}"` : why}`));
    // The no-department refusal keeps its whole record.
    expect(rejects.find((l) => l.includes('no department'))).toContain(homeless.split(';')[0]);
    expect(out.find((s) => s.table === 'buildings')!.rejects).toBe(3);
    const served = await duckRows<{ attributes: string }>(`SELECT attributes FROM '${partitionPath(dataDir, 'fr', 'buildings', 'rnb-33')}'`);
    expect(served).toHaveLength(rLines.length - 1 - rLines.filter((l) => l.includes(';demolished;')).length - 1);
    const a = served.map((r) => BuildingAttributes.parse(JSON.parse(r.attributes)));
    const late = a.find((x) => x.rnb_id === twice[3])!;
    expect([late.bdnb_id, late.construction_year.map((v) => v.value)]).toEqual(['bdnb-bg-LATE-0000-0001', [1999]]);
    expect(a.some((x) => x.rnb_id === rows[second! - 2]!.split(';')[0])).toBe(false);
  });
});
