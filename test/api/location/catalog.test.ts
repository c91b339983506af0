import { describe, expect, it } from 'vitest';
import { catalogFields } from '../../../api/location/catalog.ts';
import { CatalogField } from '../../../schemas/catalog.ts';
import type { Manifest } from '../../../schemas/tables/manifest.ts';

const partition = (p: string, source: string, table: string) => ({
  table, partition: p, file: `${table}/${p}.parquet`, job: 'test', rows: 10, rejects: 0, rejects_file: null, imported_at: '2026-11-20T10:00:00.000Z',
  schema_version: 1, sha256: 'x', sources: [{ id: source, input: 'in', input_sha256: 'y', published_at: null, downloaded_from: null }],
});
const manifest = (...partitions: ReturnType<typeof partition>[]): Manifest => ({ country: 'be', schema_version: 1, updated_at: '2026-11-20T10:00:00.000Z', partitions });

describe('catalogFields coverage (spec 4.4)', () => {
  it('says partial with the regions covered when BeST is ingested for some regions only', () => {
    const fields = catalogFields('be', 'en', manifest(partition('best.bebru', 'be.best', 'addresses')));
    const address = CatalogField.parse(fields.find((f) => f.id === 'location.address'));
    expect(address.coverage).toEqual({ status: 'partial', territories: ['Brussels-Capital Region'], updated_on: '2026-11-20' });
    expect(fields.find((f) => f.id === 'location.zones.locality')?.coverage.status).toBe('not_ingested');
  });

  it('says available when the three regions are in, and defines the Quebec fields with their sources', () => {
    const all = manifest(...['bebru', 'bevlg', 'bewal'].map((r) => partition(`best.${r}`, 'be.best', 'addresses')), partition('statbel.x', 'be.statbel-sectors', 'zones'));
    const be = catalogFields('be', 'fr', all);
    expect(be.find((f) => f.id === 'location.address')?.coverage.status).toBe('available');
    expect(be.find((f) => f.id === 'location.zones.sublocality_level2')).toMatchObject({ label: 'Secteur statistique', coverage: { status: 'available' } });
    const ca = catalogFields('ca', 'en', { ...manifest(), country: 'ca' });
    expect(ca.find((f) => f.id === 'location.zones.rental_survey_area')).toMatchObject({ sources: ['ca.rental-areas'], update_frequency: 'yearly', coverage: { status: 'not_ingested' } });
  });

  it('says a zone-values field partial with the regions where its source published values, available once every region has some', () => {
    const prices = manifest(partition('be.statbel-prices.2024', 'be.statbel-prices', 'zone_values'));
    const names = new Map([['02000', 'Vlaams Gewest'], ['03000', 'Région wallonne'], ['04000', 'Région de Bruxelles-Capitale']]);
    const some = catalogFields('be', 'en', prices, { bySource: new Map([['be.statbel-prices', new Set(['04000', '02000'])]]), names });
    expect(some.find((f) => f.id === 'market.sale_price_median')!.coverage).toEqual({ status: 'partial', territories: ['Région de Bruxelles-Capitale', 'Vlaams Gewest'], updated_on: '2026-11-20' });
    const every = catalogFields('be', 'en', prices, { bySource: new Map([['be.statbel-prices', new Set(names.keys())]]), names });
    expect(every.find((f) => f.id === 'market.sale_price_median')!.coverage.status).toBe('available');
    // Another source's territories do not count for this field.
    const other = catalogFields('be', 'en', prices, { bySource: new Map([['be.statbel-income', new Set(names.keys())]]), names });
    expect(other.find((f) => f.id === 'market.sale_price_median')!.coverage).toMatchObject({ status: 'available', territories: null });
  });
});

