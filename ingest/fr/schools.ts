import { schoolsSource } from '../../datasets/fr/schools/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';

/**
 * The education directory's CSV export (fr-en-annuaire-education, semicolon, UTF-8, the portal's
 * column labels) -> fr/places, partition fr.schools, id the establishment's UAI. An école is a
 * primary school when it has elementary classes, else a kindergarten; collèges, lycées and EREA are
 * secondary schools. Other establishments (administrative services, guidance centres, medico-social)
 * and closed ones are left out and counted, as are rows the directory publishes without a position.
 */
export const SCHOOLS_COLUMNS = {
  uai: 'Identifiant_de_l_etablissement', name: 'Nom_etablissement', type: 'Type_etablissement', kindergarten: 'Ecole_maternelle', elementary: 'Ecole_elementaire',
  latitude: 'latitude', longitude: 'longitude',
  // Optional: served when present.
  status: 'Statut_public_prive', address: 'Adresse_1', postcode: 'Code_postal', commune: 'Nom_commune', communeCode: 'Code_commune', state: 'etat',
} as const;
const REQUIRED = [SCHOOLS_COLUMNS.uai, SCHOOLS_COLUMNS.name, SCHOOLS_COLUMNS.type, SCHOOLS_COLUMNS.kindergarten, SCHOOLS_COLUMNS.elementary, SCHOOLS_COLUMNS.latitude, SCHOOLS_COLUMNS.longitude];
export const SCHOOLS_PARTITION = 'fr.schools';

/** The taxonomy code of a directory row, or null for an establishment that is not a school. */
export function schoolCategory(type: string, kindergarten: string, elementary: string): PlaceCategory | null {
  const t = type.trim().toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  if (t === 'ecole') return elementary.trim() === '1' ? 'school.primary' : kindergarten.trim() === '1' ? 'school.kindergarten' : 'school.primary';
  if (t === 'college' || t === 'lycee' || t === 'erea') return 'school.high_school';
  return null;
}

export function schoolRow(r: Record<string, string>): RowOutcome {
  const c = SCHOOLS_COLUMNS;
  const uai = (r[c.uai] ?? '').trim();
  if (!/^\d{7}[A-Z]$/.test(uai)) return { reject: `${c.uai} "${uai}" is not a UAI (7 digits and a letter)` };
  const category = schoolCategory(r[c.type] ?? '', r[c.kindergarten] ?? '', r[c.elementary] ?? '');
  if (!category) return { skip: 'establishments that are not schools' };
  if ((r[c.state] ?? '').trim().toUpperCase() === 'FERME') return { skip: 'closed' };
  if ((r[c.latitude] ?? '').trim() === '' && (r[c.longitude] ?? '').trim() === '') return { skip: 'without a position in the directory' };
  const lat = decimal(r[c.latitude]), lng = decimal(r[c.longitude]);
  if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180)) return { reject: `${c.latitude}/${c.longitude} is not a WGS84 position` };
  const street = (r[c.address] ?? '').trim(), town = [(r[c.postcode] ?? '').trim(), (r[c.commune] ?? '').trim()].filter((s) => s).join(' ');
  return {
    id: `${schoolsSource.id}.${uai}`, latitude: lat, longitude: lng, category, name: (r[c.name] ?? '').trim() || null,
    attributes: {
      uai, address: [street, town].filter((s) => s).join(', ') || null, sector: ((r[c.status] ?? '').trim() || null),
      commune_code: (r[c.communeCode] ?? '').trim() || null,
    },
  };
}

export function ingestSchools(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country: 'fr', job: 'fr.schools', source: schoolsSource, partition: SCHOOLS_PARTITION, layout: "the education directory's CSV export (fr-en-annuaire-education)",
    separator: ';', required: REQUIRED, row: schoolRow,
  });
}
