import { coastalErosionSource, CA_COASTAL_EROSION_LAYER } from '../../datasets/ca/coastal-erosion/source.ts';
import { floodZonesSource, CA_FLOOD_LAYER } from '../../datasets/ca/flood-zones/source.ts';
import { landslideSource, CA_LANDSLIDE_LAYER } from '../../datasets/ca/landslide/source.ts';
import { textOf, type Classified, type HazardLayer } from '../core/hazard-polygons.ts';

/**
 * Return period of a flood zone -> the common scale (spec 2.5, issue 15): 0-20 years (grand
 * courant) high, 20-100 years (faible courant) moderate; a zone mapped without a return period
 * is `present`. Written as the producer writes it ("0-20 ans", "20-100 ans"), spaces and dash
 * variants tolerated; anything else is refused with its value rather than guessed.
 */
export function floodLevel(typeZone: string): 'high' | 'moderate' | 'present' | null {
  const t = typeZone.normalize('NFC').toLowerCase().replace(/[‐‑–—]/g, '-').replace(/\s+/g, ' ').trim();
  if (/^0 ?- ?20 ans\b/.test(t) || t === 'grand courant') return 'high';
  if (/^20 ?- ?100 ans\b/.test(t) || t === 'faible courant') return 'moderate';
  if (/^(zone inondable )?sans (cote|r[ée]currence)/.test(t)) return 'present';
  return null;
}

export const CA_FLOOD: HazardLayer = {
  country: 'ca', source: floodZonesSource, layer: CA_FLOOD_LAYER, required: ['NO_ZONE', 'TYPE_ZONE'], idAttribute: 'NO_ZONE',
  classify: (p): Classified => {
    const level = floodLevel(textOf(p.TYPE_ZONE));
    return level ? { attributes: { level, return_period: textOf(p.TYPE_ZONE) } } : { reject: `TYPE_ZONE ${JSON.stringify(p.TYPE_ZONE ?? null)} is not a return period (0-20 ans, 20-100 ans) nor a zone without one` };
  },
};

/** Classes of the government's landslide constraint zones (the map legend): every class is a mapped sector, level present. */
export const LANDSLIDE_CLASSES = new Set(['NA1', 'NA2', 'NS1', 'NS2', 'NH', 'RA1', 'RA1-SOMMET', 'RA1-BASE', 'RA1-NA2', 'RA2', 'NI']);

export const CA_LANDSLIDE: HazardLayer = {
  country: 'ca', source: landslideSource, layer: CA_LANDSLIDE_LAYER, required: ['NO_ZONE', 'CLASSE'], idAttribute: 'NO_ZONE',
  classify: (p): Classified => {
    const cls = textOf(p.CLASSE).toUpperCase().replace(/\s+/g, '');
    return LANDSLIDE_CLASSES.has(cls) ? { attributes: { level: 'present', class: cls } } : { reject: `CLASSE ${JSON.stringify(p.CLASSE ?? null)} is not a class of the landslide constraint map` };
  },
};

export const CA_COASTAL_EROSION: HazardLayer = {
  country: 'ca', source: coastalErosionSource, layer: CA_COASTAL_EROSION_LAYER, required: ['NO_ZONE', 'TYPE_COTE'], idAttribute: 'NO_ZONE',
  classify: (p): Classified => {
    const coast = textOf(p.TYPE_COTE);
    return coast ? { attributes: { level: 'present', coast_type: coast } } : { reject: 'TYPE_COTE is empty: not a mapped constraint sector' };
  },
};
