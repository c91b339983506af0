import { basename } from 'node:path';
import { createProgress } from '../core/progress.ts';
import { readFile } from 'node:fs/promises';
import { XMLParser } from 'fast-xml-parser';
import iconv from 'iconv-lite';
import yauzl from 'yauzl';
import { fuelSource } from '../../datasets/fr/fuel/source.ts';
import { publish, type JobContext, type JobInput, type PartitionSummary } from '../core/job.ts';
import { PointsWriter } from '../core/kinds/points.ts';
import { decimal, pointsCsvSummary } from '../core/points-csv.ts';
import { Rejects } from '../core/rejects.ts';
import { inFrance } from './territory.ts';

/**
 * The fuel-price flow as published (PrixCarburants_instantane.xml, or the .zip holding it;
 * ISO-8859-1): `<pdv_liste><pdv id latitude longitude cp pop>` with `adresse`, `ville`, `services`
 * and `prix` elements -> fr/places as transport.fuel, partition fr.fuel, id the pdv id. Positions are
 * published in degrees multiplied by 100,000 (4886120 is 48.86120). The file names no station:
 * name null, address served. `pop` R is a road station, A a motorway one.
 */
export const FUEL_PARTITION = 'fr.fuel';
export const POSITION_SCALE = 100_000;

/** The XML text of the input: the file itself, or the only .xml member of a zip; decoded as its declaration says. */
async function readFuelXml(path: string): Promise<string> {
  const head = await readFile(path);
  let bytes: Buffer = head;
  if (head[0] === 0x50 && head[1] === 0x4b) {
    const zip = await yauzl.fromBufferPromise(head, { lazyEntries: true });
    bytes = await new Promise<Buffer>((resolve, reject) => {
      zip.on('entry', (e: yauzl.Entry) => {
        if (!/\.xml$/i.test(e.fileName)) { zip.readEntry(); return; }
        zip.openReadStreamPromise(e).then((s) => { const parts: Buffer[] = []; s.on('data', (c: Buffer) => parts.push(c)); s.on('end', () => resolve(Buffer.concat(parts))); s.on('error', reject); }, reject);
      });
      zip.on('end', () => reject(new Error(`${path}: the zip holds no .xml file (the fuel-price flow is PrixCarburants_instantane.xml)`)));
      zip.readEntry();
    });
  }
  const declared = /^<\?xml[^>]*encoding="([^"]+)"/i.exec(bytes.subarray(0, 200).toString('latin1'))?.[1] ?? 'utf-8';
  if (!iconv.encodingExists(declared)) throw new Error(`${path}: unknown XML encoding ${declared}`);
  return iconv.decode(bytes, declared);
}

const asArray = <T>(v: T | T[] | undefined): T[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : typeof v === 'object' && v !== null && '#text' in v ? String((v as { '#text': unknown })['#text']) : '').trim();

interface Pdv { '@_id'?: string; '@_latitude'?: string; '@_longitude'?: string; '@_cp'?: string; '@_pop'?: string; adresse?: unknown; ville?: unknown; services?: { service?: unknown }; prix?: unknown }

export async function ingestFuel(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  const xml = await readFuelXml(input.path);
  const parser = new XMLParser({ ignoreAttributes: false, parseAttributeValue: false, parseTagValue: false, isArray: (name: string) => name === 'pdv' || name === 'prix' || name === 'service' });
  let doc: { pdv_liste?: { pdv?: Pdv[] } };
  try { doc = parser.parse(xml); } catch (e) { throw new Error(`${input.path} is not well-formed XML: ${(e as Error).message}`); }
  const list = doc.pdv_liste?.pdv;
  if (!doc.pdv_liste) throw new Error(`${input.path} is not the fuel-price flow: no <pdv_liste> root (found ${Object.keys(doc).filter((k) => !k.startsWith('?')).join(', ') || 'nothing'})`);
  // Line of each <pdv>, for the rejects (the parser gives none).
  const lines: number[] = [];
  for (let at = xml.indexOf('<pdv '), line = 1, from = 0; at >= 0; at = xml.indexOf('<pdv ', at + 1)) {
    for (let k = from; k < at; k++) if (xml.charCodeAt(k) === 10) line++;
    from = at; lines.push(line);
  }
  const rejects = new Rejects(ctx.dataDir, 'fr', 'places', FUEL_PARTITION, ctx.maxRejectShare);
  await rejects.init();
  const writer = await PointsWriter.open(ctx.dataDir, 'fr', 'places', FUEL_PARTITION, fuelSource.id);
  const skipped = new Map<string, number>();
  const pdvs = asArray(list);
  // The flow is parsed whole: the share of its stations processed stands for the share of bytes.
  const progress = createProgress(`fr.fuel ${basename(input.path)}`, pdvs.length, ctx.progressOut);
  try {
    pdvs.forEach((p, k) => {
      progress.tick(k + 1, k + 1);
      const line = lines[k] ?? 0;
      const id = (p['@_id'] ?? '').trim();
      if (!/^\d+$/.test(id)) { rejects.add(line, `pdv id "${id}" is not a number`, p); return; }
      if ((p['@_latitude'] ?? '').trim() === '' && (p['@_longitude'] ?? '').trim() === '') { skipped.set('without a position', (skipped.get('without a position') ?? 0) + 1); return; }
      const lat = decimal(p['@_latitude']) / POSITION_SCALE, lng = decimal(p['@_longitude']) / POSITION_SCALE;
      if (!Number.isFinite(lat) || !Number.isFinite(lng) || !inFrance(lng, lat)) {
        rejects.add(line, `pdv ${id}: latitude/longitude ${p['@_latitude']}/${p['@_longitude']} divided by ${POSITION_SCALE} is not in France`, p); return;
      }
      const town = [(p['@_cp'] ?? '').trim(), text(p.ville)].filter((s) => s).join(' ');
      const prices = asArray(p.prix as Record<string, string>[]).map((x) => ({ fuel: x['@_nom'] ?? null, price: Number.isFinite(decimal(x['@_valeur'])) ? decimal(x['@_valeur']) : null, updated: x['@_maj'] ?? null }));
      const why = writer.add({
        id: `${fuelSource.id}.${id}`, latitude: Math.round(lat * 1e7) / 1e7, longitude: Math.round(lng * 1e7) / 1e7, category: 'transport.fuel', name: null,
        attributes: {
          address: [text(p.adresse), town].filter((s) => s).join(', ') || null, road: p['@_pop'] === 'A' ? 'motorway' : p['@_pop'] === 'R' ? 'road' : null,
          prices, services: asArray(p.services?.service).map(text).filter((s) => s),
        },
      });
      if (why) rejects.add(line, why, p);
    });
    progress.done();
    rejects.check(pdvs.length);
    await rejects.close();
    const out = await publish(ctx, 'fr', 'fr.fuel', fuelSource, input, FUEL_PARTITION, await writer.prepare(), rejects);
    ctx.log(pointsCsvSummary('fr.fuel', pdvs.length, writer.count, rejects.count, skipped));
    return out;
  } catch (e) {
    await rejects.close();
    await writer.abort();
    throw e;
  }
}
