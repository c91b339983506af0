import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Country } from '../schemas/common.ts';
import { ZoneLevel } from '../schemas/zone.ts';
import { banSource } from '../datasets/fr/ban/source.ts';
import { adminExpressSource } from '../datasets/fr/admin-express/source.ts';
import { contoursIrisSource } from '../datasets/fr/contours-iris/source.ts';
import { dvfRawSource, dvfSource } from '../datasets/fr/dvf/source.ts';
import type { Source } from '../datasets/source.ts';
import type { JobContext, PartitionSummary } from './core/job.ts';
import { download } from './core/download.ts';
import { ingestBanFile } from './fr/ban.ts';
import { ingestFrZones } from './fr/zones.ts';
import { dvfFiles, ingestDvf } from './fr/dvf.ts';
import { ingestGenericZones } from './generic/zones.ts';
import { ingestGenericAddresses } from './generic/addresses.ts';
import { bestSource } from '../datasets/be/best/source.ts';
import { refnisSource, statbelSectorsSource } from '../datasets/be/statbel-sectors/source.ts';
import { ingestBeZones } from './be/zones.ts';
import { ingestBestFile } from './be/best.ts';
import { adressesQuebecSource, fsaSource, montrealLimitsSource, montrealRollSource, munSource, rentalAreasSource, sdaSource } from '../datasets/ca/sources.ts';
import { ingestCaZones } from './ca/zones.ts';
import { ingestAdressesQuebec } from './ca/adresses-quebec.ts';
import { ingestMontrealRoll } from './ca/roll.ts';
import { filosofiSource } from '../datasets/fr/filosofi/source.ts';
import { ingestFilosofi } from './fr/filosofi.ts';
import { statbelIncomeSource } from '../datasets/be/statbel-income/source.ts';
import { ingestStatbelIncome } from './be/statbel-income.ts';

/** Where the committed samples live, relative to the repository root. */
export const REPO_ROOT = resolve(import.meta.dirname, '..');

export interface Job {
  id: string;
  summary: string;
  sources: Source[];
  usage: string;
  /** Runs the job with its command-line arguments (after the job name). */
  run(ctx: JobContext, argv: string[]): Promise<PartitionSummary[]>;
  /** Inputs of the committed samples, as argument lists. */
  samples: string[][];
}

export class UsageError extends Error {}

function args<T extends Record<string, { type: 'string' | 'boolean' }>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: false, strict: true }).values;
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

function countryOption(value: string | undefined): Country {
  const country = Country.safeParse(value);
  if (!country.success) throw new UsageError(`--country must be one of ${Country.options.join(', ')}`);
  return country.data;
}

function requireInput(input: string | undefined): string {
  if (!input) throw new UsageError('--input is required');
  if (!existsSync(input)) throw new UsageError(`input not found: ${input}`);
  return input;
}

function banFiles(input: string): string[] {
  if (!statSync(input).isDirectory()) return [input];
  const files = readdirSync(input).filter((f) => /^adresses-.+\.csv(\.gz)?$/i.test(f)).sort().map((f) => join(input, f));
  if (files.length === 0) throw new UsageError(`no adresses-XX.csv file in ${input}`);
  return files;
}

export const JOBS: Job[] = [
  {
    id: 'fr.ban',
    summary: 'French national address file (BAN), adresses-XX.csv per department -> fr/addresses',
    sources: [banSource],
    usage: 'fr.ban --input <adresses-XX.csv[.gz] | folder> | --download --part <department> [--url <mirror folder>]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, download: { type: 'boolean' }, part: { type: 'string' }, url: { type: 'string' } });
      if (o.download) {
        if (!o.part || !/^(\d{2}|2[AB]|97[1-6])$/.test(o.part)) throw new UsageError('--download needs --part <department code>, e.g. --part 75');
        // --url names a mirror of the producer's folder (same file names).
        const url = (o.url ? `${o.url.replace(/\/$/, '')}/adresses-{part}.csv.gz` : banSource.download_url!).replace('{part}', o.part);
        ctx.log(`downloading ${url}`);
        const d = await download(url, join(ctx.dataDir, 'downloads', 'fr'));
        return ingestBanFile(ctx, { path: d.path, sha256: d.sha256, downloadedFrom: d.url, publishedAt: d.publishedAt });
      }
      const out: PartitionSummary[] = [];
      for (const file of banFiles(requireInput(o.input))) out.push(...await ingestBanFile(ctx, { path: file }));
      return out;
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/fr/ban')]],
  },
  {
    id: 'fr.zones',
    summary: 'IGN ADMIN EXPRESS (regions, departments, communes, municipal arrondissements) and CONTOURS-IRIS shapefiles -> fr/zones, fr/zone_cells',
    sources: [adminExpressSource, contoursIrisSource],
    usage: 'fr.zones --input <delivery folder | layer .shp | .zip> [--encoding E]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, encoding: { type: 'string' } });
      return ingestFrZones(ctx, requireInput(o.input), { encoding: o.encoding });
    },
    samples: [
      ['--input', join(REPO_ROOT, 'datasets/fr/admin-express')],
      ['--input', join(REPO_ROOT, 'datasets/fr/admin-express-974')],
      ['--input', join(REPO_ROOT, 'datasets/fr/contours-iris')],
    ],
  },
  {
    id: 'ca.zones',
    summary: 'Quebec zones: SDA regions, MRC, municipalities, arrondissements (named from MAMH MUN.csv), Montreal limadmin, Statistics Canada FSA (EPSG:3347), rental-survey neighbourhoods -> ca/zones, ca/zone_cells',
    sources: [sdaSource, munSource, montrealLimitsSource, fsaSource, rentalAreasSource],
    usage: 'ca.zones [--sda <folder | layer.shp>] [--mun MUN.csv] [--montreal limadmin.geojson] [--fsa lfsa000b21a_e.shp] [--rental <neighbourhoods .shp>] [--encoding E]',
    async run(ctx, argv) {
      const o = args(argv, {
        sda: { type: 'string' }, mun: { type: 'string' }, montreal: { type: 'string' }, fsa: { type: 'string' }, rental: { type: 'string' }, encoding: { type: 'string' },
      });
      if (!o.sda && !o.montreal && !o.fsa && !o.rental) throw new UsageError('give at least one of --sda, --montreal, --fsa, --rental');
      const opt = (v: string | undefined) => (v === undefined ? undefined : requireInput(v));
      return ingestCaZones(ctx, { sda: opt(o.sda), mun: opt(o.mun), montreal: opt(o.montreal), fsa: opt(o.fsa), rental: opt(o.rental), encoding: o.encoding });
    },
    samples: [[
      '--sda', join(REPO_ROOT, 'datasets/ca/sda'), '--mun', join(REPO_ROOT, 'datasets/ca/mun/MUN.csv'),
      '--fsa', join(REPO_ROOT, 'datasets/ca/fsa/lfsa000b21a_e.shp'), '--rental', join(REPO_ROOT, 'datasets/ca/rental-areas/quartiers_enquete_locative.shp'),
    ]],
  },
  {
    id: 'ca.adresses-quebec',
    summary: 'Adresses Québec civic addresses (CSV export, NAD83 / Quebec Lambert EPSG:32198) -> ca/addresses',
    sources: [adressesQuebecSource],
    usage: 'ca.adresses-quebec --input <AQ_adresses.csv> [--crs EPSG:NNNN]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, crs: { type: 'string' } });
      return ingestAdressesQuebec(ctx, { path: requireInput(o.input) }, o.crs);
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/ca/adresses-quebec/AQ_adresses.csv')]],
  },
  {
    id: 'ca.montreal-roll',
    summary: "Montreal's assessment roll units (uniteevaluationfonciere.csv): civic numbers the official addresses lack, placed along their street, zipcode null -> ca/addresses",
    sources: [montrealRollSource],
    usage: 'ca.montreal-roll --input <uniteevaluationfonciere.csv>   (after ca.adresses-quebec or the addresses job)',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' } });
      return ingestMontrealRoll(ctx, { path: requireInput(o.input) });
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/ca/role-montreal/uniteevaluationfonciere.csv')]],
  },
  {
    id: 'be.zones',
    summary: 'Statbel statistical sectors (regions, provinces, arrondissements, communes, sections, sectors; Lambert 72 or 2008), or a commune boundary file with the REFNIS list -> be/zones, be/zone_cells',
    sources: [statbelSectorsSource, refnisSource],
    usage: 'be.zones --input <sectors .geojson | .shp | .zip> [--refnis REFNIS.csv] | --input <communes file> --code-property P --refnis REFNIS.csv [--name-property P] [--encoding E] [--layer NAME] [--crs EPSG:NNNN]',
    async run(ctx, argv) {
      const o = args(argv, {
        input: { type: 'string' }, refnis: { type: 'string' }, 'code-property': { type: 'string' }, 'name-property': { type: 'string' },
        encoding: { type: 'string' }, layer: { type: 'string' }, crs: { type: 'string' },
      });
      if (o['code-property'] && !o.refnis) throw new UsageError('--code-property (a commune boundary file) needs --refnis');
      return ingestBeZones(ctx, {
        input: requireInput(o.input), refnis: o.refnis === undefined ? undefined : requireInput(o.refnis), codeProperty: o['code-property'],
        nameProperty: o['name-property'], encoding: o.encoding, layer: o.layer, crs: o.crs,
      });
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-sectors/sh_statbel_statistical_sectors_3812_20240101.geojson'), '--refnis', join(REPO_ROOT, 'datasets/be/statbel-sectors/REFNIS_2024.csv')]],
  },
  {
    id: 'be.best',
    summary: 'BeST Address per region (openaddress-bebru/bevlg/bewal.csv; street and municipality names in French, Dutch and German) -> be/addresses',
    sources: [bestSource],
    usage: 'be.best --input <openaddress-beXXX.csv | folder>',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' } });
      const input = requireInput(o.input);
      const files = statSync(input).isDirectory()
        ? readdirSync(input).filter((f) => /^openaddress-be.+\.csv(\.gz)?$/i.test(f)).sort().map((f) => join(input, f))
        : [input];
      if (files.length === 0) throw new UsageError(`no openaddress-beXXX.csv file in ${input}`);
      const out: PartitionSummary[] = [];
      for (const file of files) out.push(...await ingestBestFile(ctx, { path: file }));
      return out;
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/be/best')]],
  },
  {
    id: 'fr.dvf',
    summary: "Property sales (DVF): Etalab's geolocated <year>/departements/<dep>.csv and the DGFiP's ValeursFoncieres text files -> fr/sales, fr/market_indicators",
    sources: [dvfSource, dvfRawSource],
    usage: 'fr.dvf --input <file | folder of DVF files> | --download --part <year>/<department> [--url <mirror of the csv folder>]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, download: { type: 'boolean' }, part: { type: 'string' }, url: { type: 'string' } });
      if (o.download) {
        const m = /^(\d{4})\/(\d{2}|2[AB]|97[1-5])$/.exec(o.part ?? '');
        if (!m) throw new UsageError('--download needs --part <year>/<department>, e.g. --part 2024/33 (Alsace-Moselle and Mayotte are not published)');
        const url = (o.url ? `${o.url.replace(/\/$/, '')}/{year}/departements/{department}.csv.gz` : dvfSource.download_url!).replace('{year}', m[1]!).replace('{department}', m[2]!);
        ctx.log(`downloading ${url}`);
        const d = await download(url, join(ctx.dataDir, 'downloads', 'fr', 'dvf', m[1]!, 'departements'));
        return ingestDvf(ctx, [{ path: d.path, sha256: d.sha256, downloadedFrom: d.url, publishedAt: d.publishedAt }]);
      }
      const input = requireInput(o.input);
      const files = statSync(input).isDirectory() ? dvfFiles(input) : [input];
      if (files.length === 0) throw new UsageError(`no DVF file (.csv, .txt) in ${input}`);
      return ingestDvf(ctx, files.map((path) => ({ path })));
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/fr/dvf')]],
  },
  {
    id: 'fr.filosofi',
    summary: "INSEE Filosofi disposable income by IRIS (BASE_TD_FILO_DISP_IRIS_<year>.csv): median per consumption unit, quartiles, poverty rate -> fr/zone_values",
    sources: [filosofiSource],
    usage: 'fr.filosofi --input <BASE_TD_FILO_DISP_IRIS_YYYY.csv | folder> [--published-on YYYY-MM-DD]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, 'published-on': { type: 'string' } });
      const published = o['published-on'];
      if (published !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(published)) throw new UsageError('--published-on must be a date YYYY-MM-DD (the producer\'s publication date of the edition)');
      const input = requireInput(o.input);
      const files = statSync(input).isDirectory()
        ? readdirSync(input).filter((f) => /^BASE_TD_FILO_DISP_IRIS_\d{4}.*\.csv$/i.test(f)).sort().map((f) => join(input, f))
        : [input];
      if (files.length === 0) throw new UsageError(`no BASE_TD_FILO_DISP_IRIS_YYYY.csv file in ${input}`);
      const out: PartitionSummary[] = [];
      for (const file of files) out.push(...await ingestFilosofi(ctx, { path: file, publishedOn: published ?? null }));
      return out;
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/fr/filosofi')]],
  },
  {
    id: 'be.statbel-income',
    summary: "Statbel fiscal income by municipality (TF_PSNL_INC_TAX_MUNTY.txt): mean net taxable income per tax return, one partition per income year -> be/zone_values",
    sources: [statbelIncomeSource],
    usage: 'be.statbel-income --input <TF_PSNL_INC_TAX_MUNTY.txt> [--published-on YYYY-MM-DD]',
    async run(ctx, argv) {
      const o = args(argv, { input: { type: 'string' }, 'published-on': { type: 'string' } });
      const published = o['published-on'];
      if (published !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(published)) throw new UsageError('--published-on must be a date YYYY-MM-DD (the producer\'s publication date of the edition)');
      return ingestStatbelIncome(ctx, { path: requireInput(o.input), publishedOn: published ?? null });
    },
    samples: [['--input', join(REPO_ROOT, 'datasets/be/statbel-income/TF_PSNL_INC_TAX_MUNTY.txt')]],
  },
  {
    id: 'zones',
    summary: 'Boundary file of any producer (GeoJSON or Shapefile, any CRS) as one zone level -> <country>/zones, <country>/zone_cells',
    sources: [],
    usage: 'zones --country fr --level <level> --input FILE --code-property P [--name-property P] [--parent-property P] [--parent-level L] [--encoding E] [--layer NAME] [--crs EPSG:NNNN]',
    async run(ctx, argv) {
      const o = args(argv, {
        country: { type: 'string' }, level: { type: 'string' }, input: { type: 'string' }, 'code-property': { type: 'string' },
        'name-property': { type: 'string' }, 'parent-property': { type: 'string' }, 'parent-level': { type: 'string' },
        encoding: { type: 'string' }, layer: { type: 'string' }, crs: { type: 'string' },
      });
      const country = countryOption(o.country);
      const level = ZoneLevel.safeParse(o.level);
      if (!level.success) throw new UsageError(`--level must be one of ${ZoneLevel.options.join(', ')}`);
      const parentLevel = o['parent-level'] === undefined ? undefined : ZoneLevel.safeParse(o['parent-level']);
      if (parentLevel && !parentLevel.success) throw new UsageError(`--parent-level must be one of ${ZoneLevel.options.join(', ')}`);
      if (!o['code-property']) throw new UsageError('--code-property is required');
      return ingestGenericZones(ctx, {
        country, level: level.data, input: requireInput(o.input), codeProperty: o['code-property'],
        nameProperty: o['name-property'], parentProperty: o['parent-property'], parentLevel: parentLevel?.data,
        encoding: o.encoding, layer: o.layer, crs: o.crs,
      });
    },
    samples: [],
  },
  {
    id: 'addresses',
    summary: 'Address points of any producer (CSV, columns named as options, any separator, encoding and CRS) -> <country>/addresses',
    sources: [],
    usage: 'addresses --country ca --input FILE --locality-column C (--address-column C | [--number-column C] --street-column C) (--lng-column C --lat-column C | --x-column C --y-column C --crs EPSG:NNNN) [--id-column C] [--postcode-column C] [--locality-code-column C] [--encoding E] [--separator S] [--partition NAME]',
    async run(ctx, argv) {
      const o = args(argv, {
        country: { type: 'string' }, input: { type: 'string' }, crs: { type: 'string' }, encoding: { type: 'string' }, separator: { type: 'string' }, partition: { type: 'string' },
        'id-column': { type: 'string' }, 'address-column': { type: 'string' }, 'number-column': { type: 'string' }, 'street-column': { type: 'string' },
        'postcode-column': { type: 'string' }, 'locality-column': { type: 'string' }, 'locality-code-column': { type: 'string' },
        'lng-column': { type: 'string' }, 'lat-column': { type: 'string' }, 'x-column': { type: 'string' }, 'y-column': { type: 'string' },
      });
      const country = countryOption(o.country);
      if (!o['locality-column']) throw new UsageError('--locality-column is required');
      if (!o['address-column'] && !o['street-column']) throw new UsageError('--address-column or --street-column is required');
      if (!(o['lng-column'] && o['lat-column']) && !(o['x-column'] && o['y-column'] && o.crs)) throw new UsageError('--lng-column and --lat-column, or --x-column, --y-column and --crs, are required');
      return ingestGenericAddresses(ctx, {
        country, input: requireInput(o.input), crs: o.crs, encoding: o.encoding, separator: o.separator, partition: o.partition,
        columns: {
          id: o['id-column'], address: o['address-column'], number: o['number-column'], street: o['street-column'], postcode: o['postcode-column'],
          locality: o['locality-column'], localityCode: o['locality-code-column'], lng: o['lng-column'], lat: o['lat-column'], x: o['x-column'], y: o['y-column'],
        },
      });
    },
    samples: [],
  },
];


export function jobById(id: string): Job | undefined {
  return JOBS.find((j) => j.id === id);
}

/** Runs every job on the committed samples (zones first: addresses are checked against them, sales get their IRIS). */
export async function runSamples(ctx: JobContext): Promise<PartitionSummary[]> {
  const order = ['fr.zones', 'fr.ban', 'fr.dvf', 'fr.filosofi', 'ca.zones', 'ca.adresses-quebec', 'ca.montreal-roll', 'be.zones', 'be.best', 'be.statbel-income'];
  const out: PartitionSummary[] = [];
  for (const id of order) {
    const job = jobById(id)!;
    for (const argv of job.samples) {
      if (existsSync(argv[1]!)) out.push(...await job.run(ctx, argv));
    }
  }
  return out;
}
