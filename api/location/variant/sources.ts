import type { Country } from '../../../schemas/common.ts';
import type { CitedSource } from '../../../schemas/variant.ts';
import { sourceById, type Source } from '../../../datasets/catalogue.ts';
import type { Manifests } from '../../core/manifests.ts';

/** Days after which a source's import lags its update rhythm: twice the rhythm (a weekly file a fortnight old). */
const FRESH_DAYS: Record<Source['update_frequency'], number | null> = {
  daily: 2, weekly: 14, monthly: 62, quarterly: 184, half_yearly: 366, yearly: 731, irregular: null,
};

/** Share-alike licences oblige reusers to keep the licence; open licences without it do not; unknown: null. */
export function shareAlike(licence: string): boolean | null {
  if (/odbl|\bsa\b|share.?alike/i.test(licence)) return true;
  if (/licence ouverte|open licence|cc by 4\.0|cc0|statbel|statistics canada open licence/i.test(licence)) return false;
  return null;
}

/**
 * meta.sources (spec 2.12): each catalogued source behind the answer once, with its licence and
 * attribution, the producer's publication date and our import date read from the manifest.
 * Sources not in the catalogue (boundary files loaded with the generic jobs) cannot be described and are left out.
 */
export async function citedSources(manifests: Manifests, country: Country, ids: string[], now: Date): Promise<CitedSource[]> {
  const manifest = await manifests.get(country);
  const out: CitedSource[] = [];
  for (const id of [...new Set(ids)].sort()) {
    const s = sourceById(id);
    if (!s) continue;
    const parts = manifest.partitions.filter((p) => p.sources.some((x) => x.id === id));
    const imported = parts.map((p) => p.imported_at).sort().at(-1) ?? null;
    const published = parts.flatMap((p) => p.sources.filter((x) => x.id === id).map((x) => x.published_at)).filter((d): d is string => !!d).sort().at(-1) ?? null;
    const window = FRESH_DAYS[s.update_frequency];
    const fresh = imported !== null && (window === null || now.getTime() - Date.parse(imported) <= window * 86_400_000);
    out.push({
      id: s.id, name: s.name, publisher: s.producer, license: s.licence, license_url: s.licence_url, attribution: s.attribution, url: s.url,
      published_at: published ? published.slice(0, 10) : null, imported_at: imported, fresh, share_alike: shareAlike(s.licence),
    });
  }
  return out;
}
