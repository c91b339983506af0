import { existsSync } from 'node:fs';
import type { JobContext, PartitionSummary } from './core/job.ts';
import type { Job } from './core/define-job.ts';
import { banJob } from './fr/ban.job.ts';
import { frZonesJob } from './fr/zones.job.ts';
import { dvfJob } from './fr/dvf.job.ts';
import { caZonesJob } from './ca/zones.job.ts';
import { adressesQuebecJob } from './ca/adresses-quebec.job.ts';
import { montrealRollJob } from './ca/roll.job.ts';
import { beZonesJob } from './be/zones.job.ts';
import { bestJob } from './be/best.job.ts';
import { genericZonesJob } from './generic/zones.job.ts';
import { genericAddressesJob } from './generic/addresses.job.ts';
import { filosofiJob } from './fr/filosofi.job.ts';
import { rentsJob } from './fr/rents.job.ts';
import { cmhcJob } from './ca/cmhc.job.ts';
import { statbelIncomeJob } from './be/statbel-income.job.ts';
import { balJob } from './fr/bal.job.ts';
import { gtfsJob } from './generic/gtfs.job.ts';
import { stationsJob } from './fr/stations.job.ts';
import { radonJob } from './fr/radon.job.ts';
import { seismicJob } from './fr/seismic.job.ts';
import { clayJob } from './fr/clay.job.ts';
import { pollutedSitesJob } from './fr/polluted-sites.job.ts';
import { censusJob } from './fr/census.job.ts';
import { housingZonesJob } from './fr/housing-zones.job.ts';
import { statbelPricesJob } from './be/statbel-prices.job.ts';
import { beCensusJob } from './be/building-stock.job.ts';
import { caCensusJob } from './ca/census.job.ts';
import { caAssessmentJob } from './ca/assessment.job.ts';
import { floodZonesJob } from './ca/flood-zones.job.ts';
import { landslideJob } from './ca/landslide.job.ts';
import { coastalErosionJob } from './ca/coastal-erosion.job.ts';
import { contaminatedLandJob } from './ca/contaminated-land.job.ts';
import { brusselsFloodJob } from './be/brussels-flood.job.ts';
import { brusselsSoilJob } from './be/brussels-soil.job.ts';
import { sisJob } from './fr/sis.job.ts';
import { protectedAreasJob } from './fr/protected-areas.job.ts';
import { riskCommunesJob } from './fr/risk-communes.job.ts';
import { cadastreJob } from './fr/cadastre.job.ts';
import { dpeJob } from './fr/dpe.job.ts';
import { buildingsJob } from './fr/buildings.job.ts';
import { propertiesJob } from './fr/properties.job.ts';
import { coproJob } from './fr/copro.job.ts';
import { bpeJob } from './fr/bpe.job.ts';
import { schoolsJob } from './fr/schools.job.ts';
import { chargingJob } from './fr/charging.job.ts';
import { fuelJob } from './fr/fuel.job.ts';
import { caSchoolsJob } from './ca/schools.job.ts';
import { caHealthJob } from './ca/health.job.ts';
import { airportsJob } from './generic/airports.job.ts';
import { osmMotorwayJunctionsJob } from './generic/osm-motorway-junctions.job.ts';
import { beSchoolsJob } from './be/schools.job.ts';
import { beSchoolsVlJob } from './be/schools-vl.job.ts';
import { beHealthJob } from './be/health.job.ts';

export { REPO_ROOT, type Job } from './core/define-job.ts';
export { UsageError } from './core/options.ts';

/** Every job (each declared beside its code); `list` shows them in this order. */
export const JOBS: Job[] = [
  banJob, frZonesJob, caZonesJob, adressesQuebecJob, montrealRollJob, beZonesJob, bestJob, dvfJob, filosofiJob, rentsJob, cmhcJob, statbelIncomeJob, genericZonesJob, genericAddressesJob,
  balJob,
  gtfsJob, stationsJob,
  radonJob, seismicJob, clayJob, pollutedSitesJob,
  censusJob, housingZonesJob, statbelPricesJob, beCensusJob, caCensusJob, caAssessmentJob,
  floodZonesJob, landslideJob, coastalErosionJob, contaminatedLandJob,
  brusselsFloodJob, brusselsSoilJob,
  sisJob, riskCommunesJob,
  cadastreJob, dpeJob, buildingsJob, propertiesJob, coproJob, protectedAreasJob,
  bpeJob, schoolsJob, chargingJob, fuelJob, caSchoolsJob,
  airportsJob, osmMotorwayJunctionsJob, beSchoolsJob, caHealthJob, beSchoolsVlJob, beHealthJob,
];

export function jobById(id: string): Job | undefined {
  return JOBS.find((j) => j.id === id);
}

/**
 * The jobs in an order where every job runs after the jobs writing a table it reads (a job
 * reading the table it writes, as ca.montreal-roll, waits only for the others). Stable: among
 * the jobs ready at once, the first in `jobs` goes first. Tables are matched by name whatever
 * the country, which may order more than needed but never less.
 */
export function runOrder(jobs: readonly Job[]): Job[] {
  const after = new Map(jobs.map((j) => [j, new Set(jobs.filter((w) => w !== j && w.writes.some((t) => j.reads.includes(t))))]));
  const out: Job[] = [];
  const left = [...jobs];
  while (left.length > 0) {
    const i = left.findIndex((j) => [...after.get(j)!].every((w) => out.includes(w)));
    if (i < 0) {
      const cycle = left.map((j) => `${j.id} (reads ${j.reads.join(', ')}; writes ${j.writes.join(', ')})`).join('; ');
      throw new Error(`jobs read each other's tables in a cycle, no order runs them: ${cycle}`);
    }
    out.push(...left.splice(i, 1));
  }
  return out;
}

/** Runs every job on the committed samples, in the order of what they read and write. */
export async function runSamples(ctx: JobContext, jobs: readonly Job[] = JOBS): Promise<PartitionSummary[]> {
  const out: PartitionSummary[] = [];
  for (const job of runOrder(jobs)) {
    for (const argv of job.samples) {
      // A job deriving its tables from others (fr.properties) has an empty argument list.
      if (argv.length === 0 || existsSync(argv[1]!)) out.push(...await job.run(ctx, argv));
    }
  }
  return out;
}
