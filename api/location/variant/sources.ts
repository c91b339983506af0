import type { Country } from '../../../schemas/common.ts';
import type { CitedSource } from '../../../schemas/variant.ts';
import { sourceById } from '../../../datasets/catalogue.ts';
import { isStale } from '../../../datasets/source.ts';
import type { Manifests } from '../../core/manifests.ts';

/** Share-alike licences oblige reusers to keep the licence; open licences without it do not; unknown: null. */
export function shareAlike(licence: string): boolean | null {
  if (/odbl|\bsa\b|share.?alike/i.test(licence)) return true;
  if (/licence ouverte|open licence|cc by 4\.0|cc0|public domain|statbel|statistics canada open licence/i.test(licence)) return false;
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
    const fresh = imported !== null && !isStale(imported, s.update_frequency, now);
    out.push({
      id: s.id, name: s.name, publisher: s.producer, license: s.licence, license_url: s.licence_url, attribution: s.attribution, url: s.url,
      published_at: published ? published.slice(0, 10) : null, imported_at: imported, fresh, share_alike: shareAlike(s.licence),
    });
  }
  return out;
}
