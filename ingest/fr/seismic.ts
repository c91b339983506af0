import { SEISMIC_INDICATOR, seismicSource } from '../../datasets/fr/seismic/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { ingestCommuneClasses } from './commune-classes.ts';

export { SEISMIC_INDICATOR };

/**
 * The regulatory seismic zoning (décret n° 2010-1255): code_insee;nom_commune;zone_sismicite, zone
 * 1 to 5, into fr/zone_values, partition fr.seismic. Codes keep their five characters here.
 */
export function ingestSeismic(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestCommuneClasses(ctx, input, {
    source: seismicSource, file: 'the seismic zoning by commune', codeColumn: 'code_insee', classColumn: 'zone_sismicite',
    indicator: SEISMIC_INDICATOR, unit: 'zone', classes: ['1', '2', '3', '4', '5'], padFourDigitCodes: false,
  });
}
