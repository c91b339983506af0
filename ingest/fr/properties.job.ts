import { z } from 'zod';
import { propertiesSource } from '../../datasets/fr/properties/source.ts';
import { defineJob } from '../core/define-job.ts';
import { buildProperties } from './properties.ts';

export const propertiesJob = defineJob({
  id: 'fr.properties',
  summary: 'Properties (flats by their lots, houses by their parcels, dwellings named by a diagnosis) and their events, sure or probable, from fr/sales, fr/diagnoses and fr/building_links -> fr/properties, fr/property_events (partition per department), fr/id_registry (prp, evt)',
  sources: [propertiesSource],
  options: z.object({}),
  reads: ['sales', 'diagnoses', 'building_links'],
  writes: ['properties', 'property_events', 'id_registry', 'id_merges'],
  samples: [[]],
  run: (ctx) => buildProperties(ctx),
});
