import { RADON_INDICATOR, radonSource } from '../../datasets/fr/radon/source.ts';
import type { JobContext, JobInput, PartitionSummary } from '../core/job.ts';
import { ingestCommuneClasses } from './commune-classes.ts';

export { RADON_INDICATOR };

/**
 * IRSN's radon potential by commune (radon.csv: nom_comm;nom_dept;insee_com;classe_potentiel;reg)
 * into fr/zone_values, partition fr.radon. The published file's quirks, read as they are: codes of
 * departments 01-09 without their leading zero (padded back), Paris, Lyon and Marseille by
 * arrondissement (level sublocality_level1), `#VALEUR!` categories and rows without a commune code
 * (French Polynesia) refused to the rejects file with their line.
 */
export function ingestRadon(ctx: JobContext, input: JobInput): Promise<PartitionSummary[]> {
  return ingestCommuneClasses(ctx, input, {
    source: radonSource, file: "IRSN's radon potential by commune", codeColumn: 'insee_com', classColumn: 'classe_potentiel',
    indicator: RADON_INDICATOR, unit: 'category', classes: ['1', '2', '3'], padFourDigitCodes: true,
  });
}
