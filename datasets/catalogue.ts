import type { Country } from '../schemas/common.ts';
import { adminExpressSource } from './fr/admin-express/source.ts';
import { banSource } from './fr/ban/source.ts';
import { contoursIrisSource } from './fr/contours-iris/source.ts';
import { dvfRawSource, dvfSource } from './fr/dvf/source.ts';
import { filosofiSource } from './fr/filosofi/source.ts';
import { rentsSource } from './fr/rents/source.ts';
import { stationsSource } from './fr/stations/source.ts';
import { radonSource } from './fr/radon/source.ts';
import { seismicSource } from './fr/seismic/source.ts';
import { gasparSource } from './fr/gaspar/source.ts';
import { claySource } from './fr/clay/source.ts';
import { pollutedSitesSource } from './fr/polluted-sites/source.ts';
import { floodZonesSource } from './ca/flood-zones/source.ts';
import { landslideSource } from './ca/landslide/source.ts';
import { coastalErosionSource } from './ca/coastal-erosion/source.ts';
import { contaminatedLandSource } from './ca/contaminated-land/source.ts';
import { brusselsFloodSource } from './be/brussels-flood/source.ts';
import { brusselsSoilSource } from './be/brussels-soil/source.ts';
import { sisSource } from './fr/sis/source.ts';
import { protectedAreasSource } from './fr/protected-areas/source.ts';
import { brushClearingSource } from './fr/brush-clearing/source.ts';
import type { Source } from './source.ts';
import { censusSource } from './fr/census/source.ts';
import { abcZoningSource, rentControlSource, tlvZoningSource } from './fr/housing-zones/source.ts';
import { statbelPriceSectorsSource, statbelPricesSource } from './be/statbel-prices/source.ts';
import { caCensusSource } from './ca/census/source.ts';
import { caAssessmentSource, caFinancialProfileSource, caTaxRatesSource } from './ca/assessment/source.ts';
import { cadastreSource } from './fr/cadastre/source.ts';
import { dpeSource } from './fr/dpe/source.ts';
import { bdnbSource, rnbSource } from './fr/buildings/source.ts';
import { rnicSource } from './fr/copro/source.ts';
import { propertiesSource } from './fr/properties/source.ts';
import { bpeSource } from './fr/bpe/source.ts';
import { schoolsSource } from './fr/schools/source.ts';
import { chargingSource } from './fr/charging/source.ts';
import { fuelSource } from './fr/fuel/source.ts';
import { caSchoolsSource } from './ca/schools/source.ts';
import { caHealthSource } from './ca/health/source.ts';
import { beAirportsSource, caAirportsSource, frAirportsSource } from './ourairports/source.ts';
import { beOsmSource, caOsmSource, frOsmSource } from './osm/source.ts';
import { beSchoolsFwbSource } from './be/schools/source.ts';
import { beSchoolsVlSource } from './be/schools-vl/source.ts';
import { beHealthAfmpsSource } from './be/health/source.ts';
import { balSource } from './fr/bal/source.ts';
import { bestSource } from './be/best/source.ts';
import { statbelIncomeSectorsSource, statbelIncomeSource } from './be/statbel-income/source.ts';
import { cmhcSource } from './ca/cmhc/source.ts';
import { refnisSource, statbelSectorsSource } from './be/statbel-sectors/source.ts';
import { buildingStockSource } from './be/building-stock/source.ts';
import { adressesQuebecSource, fsaSource, montrealLimitsSource, montrealRollSource, munSource, rentalAreasSource, sdaSource } from './ca/sources.ts';

export type { Source } from './source.ts';

/** Every source the platform knows, by id. */
export const SOURCES: readonly Source[] = [
  banSource, adminExpressSource, contoursIrisSource, dvfSource, dvfRawSource, filosofiSource, rentsSource,
  sdaSource, munSource, montrealLimitsSource, fsaSource, rentalAreasSource, adressesQuebecSource, montrealRollSource,
  statbelSectorsSource, refnisSource, bestSource, statbelIncomeSource, statbelIncomeSectorsSource, cmhcSource,
  balSource,
  stationsSource,
  radonSource, seismicSource, claySource, pollutedSitesSource,
  censusSource, abcZoningSource, tlvZoningSource, rentControlSource, statbelPricesSource, statbelPriceSectorsSource, buildingStockSource, caCensusSource, caAssessmentSource, caTaxRatesSource, caFinancialProfileSource,
  floodZonesSource, landslideSource, coastalErosionSource, contaminatedLandSource,
  brusselsFloodSource, brusselsSoilSource,
  sisSource, brushClearingSource, gasparSource,
  cadastreSource, dpeSource, rnbSource, bdnbSource, propertiesSource, rnicSource, protectedAreasSource,
  bpeSource, schoolsSource, chargingSource, fuelSource, caSchoolsSource,
  frAirportsSource, caAirportsSource, beAirportsSource, frOsmSource, caOsmSource, beOsmSource, beSchoolsFwbSource, caHealthSource, beSchoolsVlSource, beHealthAfmpsSource,
];

export function sourceById(id: string): Source | undefined {
  return SOURCES.find((s) => s.id === id);
}

export function sourcesOf(country: Country): Source[] {
  return SOURCES.filter((s) => s.country === country);
}
