import { z } from 'zod';

/** A natural risk on a scale common to all countries (spec 2.5). */
export const Hazard = z.object({
  type: z.enum(['clay_shrink_swell', 'radon', 'seismic', 'flood', 'landslide', 'coastal_erosion', 'wildfire']),
  level: z.enum(['very_low', 'low', 'moderate', 'high', 'very_high', 'present']),
  scope: z.enum(['building', 'point', 'locality']),
  label: z.string(),
});
export type Hazard = z.infer<typeof Hazard>;
