import { sisSource, SIS_LAYER } from '../../datasets/fr/sis/source.ts';
import { pollutedSiteCategory } from '../../datasets/fr/polluted-sites/source.ts';
import { textOf } from '../core/hazard-polygons.ts';
import type { SitePolygonLayer } from '../core/site-polygons.ts';

/**
 * SIS polygons into fr/hazard_areas (layer soil_information_area, for `inside`) and
 * fr/polluted_sites (centre of each area, category polluted_site.soil_information_area, for the
 * counts and nearest items), partition fr.sis: name `nom`, address `adresse`, updated_on
 * `date_maj` when it is a date. A SIS has no status in the spec: null.
 */
export const FR_SIS: SitePolygonLayer = {
  country: 'fr', source: sisSource, layer: SIS_LAYER, required: ['id_sis', 'nom'], idAttribute: 'id_sis',
  classify: (p) => {
    const date = textOf(p.date_maj).slice(0, 10);
    return {
      category: pollutedSiteCategory('soil_information_area'), name: textOf(p.nom) || null,
      attributes: { address: textOf(p.adresse) || null, status: null, updated_on: /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : null },
    };
  },
};
