import { caHealthSource } from '../../datasets/ca/health/source.ts';
import type { PlaceCategory } from '../../schemas/categories.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { decimal, ingestPointsCsv, type RowOutcome } from '../core/points-csv.ts';

/**
 * The MSSS's installations file (installationscsv.csv of the M02 cartographic files on Données Québec):
 * comma-separated, every text field double-quoted, UTF-8, LONGITUDE/LATITUDE unquoted decimal degrees,
 * one row per installation (INSTAL_COD, its permit number) with its missions as "Oui"/"Non" columns
 * -> ca/places, partition ca.health, one place per installation:
 * - CHSGS (general and specialised hospital centre) or CHPSY (psychiatric hospital centre): health.hospital;
 * - else CLSC (local community services centre): health.clinic;
 * - else left out and counted: long-term care residences (CHSLD, as France's nursing homes, outside
 *   the taxonomy), youth protection (CPEJ) and rehabilitation centres (CRDITED, CRDP*, CRJDA, CRMDA, CRD),
 *   services given by referral, not places one walks to.
 * The missions an installation holds are kept in its attributes.
 */
export const CA_HEALTH_PARTITION = 'ca.health';
export const MSSS_MISSIONS = ['CHSGS', 'CHPSY', 'CLSC', 'CHSLD', 'CPEJ', 'CRDITED', 'CRDPA', 'CRDPM', 'CRDPV', 'CRDPL', 'CRJDA', 'CRMDA', 'CRD'] as const;
const REQUIRED = ['INSTAL_COD', 'INSTAL_NOM', 'LONGITUDE', 'LATITUDE', 'CHSGS', 'CHPSY', 'CLSC', 'CHSLD'] as const;

/** The missions a row says "Oui" to; a value other than Oui/Non (or empty, for a column the file lacks) is named. */
export function msssMissions(r: Record<string, string>): { missions: string[]; bad: string | null } {
  const missions: string[] = [];
  for (const m of MSSS_MISSIONS) {
    const v = (r[m] ?? '').trim().toLowerCase();
    if (v === 'oui') missions.push(m);
    else if (v !== 'non' && !(v === '' && !(m in r))) return { missions, bad: `${m} "${r[m]}" is neither Oui nor Non` };
  }
  return { missions, bad: null };
}

export function msssCategory(missions: readonly string[]): PlaceCategory | null {
  if (missions.includes('CHSGS') || missions.includes('CHPSY')) return 'health.hospital';
  if (missions.includes('CLSC')) return 'health.clinic';
  return null;
}

export function msssRow(r: Record<string, string>): RowOutcome {
  const code = (r.INSTAL_COD ?? '').trim();
  if (!/^\d+$/.test(code)) return { reject: `INSTAL_COD "${code}" is not an installation number` };
  const { missions, bad } = msssMissions(r);
  if (bad) return { reject: bad };
  const category = msssCategory(missions);
  if (!category) return { skip: missions.length > 0 ? `of missions outside the taxonomy only (${missions.join(', ')})` : 'without any mission' };
  if ((r.LONGITUDE ?? '').trim() === '' && (r.LATITUDE ?? '').trim() === '') return { skip: 'without a position' };
  const lng = decimal(r.LONGITUDE), lat = decimal(r.LATITUDE);
  // Quebec with a margin: a position outside is a broken row (swapped or projected coordinates).
  if (!(lng >= -80 && lng <= -57 && lat >= 44.9 && lat <= 63)) return { reject: `LONGITUDE/LATITUDE "${r.LONGITUDE}", "${r.LATITUDE}" is not a position in Quebec` };
  const text = (k: string) => (r[k] ?? '').trim() || null;
  const town = [text('MUN_NOM'), text('CODE_POSTA')].filter((s) => s).join(' ');
  return {
    id: `${caHealthSource.id}.${code}`, longitude: lng, latitude: lat, category, name: text('INSTAL_NOM'),
    attributes: {
      address: [text('ADRESSE'), town].filter((s) => s).join(', ') || null, installation_code: code, missions,
      establishment: text('ETAB_NOM'), health_region: text('RSS_NOM'), updated: text('DATE_MAJ'),
    },
  };
}

export function ingestCaHealth(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestPointsCsv(ctx, input, {
    country: 'ca', job: 'ca.health', source: caHealthSource, partition: CA_HEALTH_PARTITION, layout: "the MSSS's installations file (M02, installationscsv.csv)",
    separator: ',', required: REQUIRED, row: msssRow,
  });
}
