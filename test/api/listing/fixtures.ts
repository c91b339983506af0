/**
 * Fixtures of the listing tests: boards, agencies and users through the shared account model,
 * credentials through their repository, and properties written through the API itself.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAccountRepository } from '../../../api/accounts/accounts.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import type { Sql } from '../../../api/core/state/sql.ts';
import { createCredentialRepository } from '../../../api/listing/credentials.ts';
import type { ListingStore } from '../../../api/listing/store/index.ts';
import { buildTestApp, type TestApp } from '../../helpers/app.ts';

export const PREFIX = { '3.0': '/fr-CA/api/v3', '3.1': '/fr-CA/api/v3.1', '3.2': '/fr-CA/api/v3.2' } as const;
export type Version = keyof typeof PREFIX;
export const VERSIONS_SERVED: Version[] = ['3.0', '3.1', '3.2'];

/** A listing as a client writes it: the same payload is sent to every prefix (spec section 4). */
export function condoPayload(agencyId: number, userId: number, over: Record<string, unknown> = {}) {
  return {
    agency_id: agencyId,
    user_id: userId,
    status: 'active',
    transaction_type: 'sale',
    property_type: 'condo',
    price: 489000,
    currency: 'CAD',
    bedrooms: 2,
    bathrooms: 1,
    year_built: 1928,
    description: 'Condo lumineux au deuxième étage, près du parc La Fontaine.',
    address: {
      street_number: '4520', street_name: 'Rue Saint-Denis', unit_number: '3', city: 'Montréal', region: 'QC',
      postal_code: 'H2J 2L3', country: 'CA', latitude: 45.5262, longitude: -73.5822,
    },
    surface_areas: { unit: 'square-foot', living_area: 1050, lot_area: null, building_area: null },
    rooms_details: [
      { name: 'Salon', level: '2', area: 210, dimensions: '14 x 15 pi', flooring: 'bois franc' },
      { name: 'Cuisine', level: '2', area: 120, dimensions: '10 x 12 pi', flooring: 'céramique' },
    ],
    lot_details: [],
    life_lease: null,
    amenities: ['balcony', 'storage'],
    photos: [{ url: 'https://photos.example.ca/4520-st-denis/1.jpg', caption: 'Façade' }],
    ...over,
  };
}

/** A French life-lease (viager) house: life_lease amounts are numbers on every prefix. */
export function viagerPayload(agencyId: number, over: Record<string, unknown> = {}) {
  return {
    agency_id: agencyId,
    status: 'active',
    transaction_type: 'sale',
    property_type: 'house',
    price: 95000.5,
    currency: 'EUR',
    bedrooms: 3,
    bathrooms: 1,
    address: { street_number: '12', street_name: 'Rue des Lilas', unit_number: null, city: 'Bordeaux', region: 'Gironde', postal_code: '33000', country: 'FR', latitude: null, longitude: null },
    surface_areas: { unit: 'square-meter', living_area: 1250.5, lot_area: 640, building_area: null },
    rooms_details: [{ name: 'Séjour', level: 'rez-de-chaussée', area: 32.4, dimensions: null, flooring: 'parquet' }],
    lot_details: [{ kind: 'lot', area: 640, cadastre_number: 'AB 123' }],
    life_lease: { venal_value: 240000, life_annuity: 850.75 },
    amenities: ['garden', 'garage'],
    photos: [],
    ...over,
  };
}

export interface ListingFixture {
  t: TestApp;
  sql: Sql;
  /** Credentials on board gmtl and bxl. */
  auth: Record<string, string>;
  /** Credentials on board bxl only. */
  bxlOnly: Record<string, string>;
  disabled: Record<string, string>;
  boards: { gmtl: number; bxl: number };
  agencyId: number;
  userId: number;
  otherBoardAgencyId: number;
  dataDir: string;
  close(): Promise<void>;
}

/** The app on `sql` (already open, migrated here) with two boards and three credentials. */
export async function listingFixture(sql: Sql, opts: { env?: Record<string, string>; listingStore?: ListingStore } = {}): Promise<ListingFixture> {
  await migrate(sql);
  const dataDir = mkdtempSync(path.join(tmpdir(), 'listing-'));
  const t = await buildTestApp(dataDir, { sql, env: opts.env, listingStore: opts.listingStore });
  const accounts = createAccountRepository(sql);
  const gmtl = await accounts.createBoard({ slug: 'gmtl', name: 'Grand Montréal', default_language: 'fr-CA' });
  const bxl = await accounts.createBoard({ slug: 'bxl', name: 'Bruxelles', default_language: 'fr' });
  const agency = await accounts.createAgency({ board_id: gmtl.id, name: 'Immobilier Plateau', country: 'CA' });
  const other = await accounts.createAgency({ board_id: bxl.id, name: 'Agence Louise', country: 'BE' });
  const user = await accounts.createUser({ agency_id: agency.id, email: 'julie.tremblay@example.ca', first_name: 'Julie', last_name: 'Tremblay', languages: ['fr', 'en'] });
  const credentials = createCredentialRepository(sql);
  const pair = async (boards: string[]) => {
    const c = await credentials.create({ boards });
    return { credential: c.credential, headers: { apiKey: c.apiKey, apiToken: c.apiToken } };
  };
  const both = await pair(['gmtl', 'bxl']);
  const bxlOnly = await pair(['bxl']);
  const disabled = await pair(['gmtl']);
  await credentials.setDisabled(String(disabled.credential.id), true);
  return {
    t, sql, auth: both.headers, bxlOnly: bxlOnly.headers, disabled: disabled.headers,
    boards: { gmtl: gmtl.id, bxl: bxl.id }, agencyId: agency.id, userId: user.id, otherBoardAgencyId: other.id, dataDir,
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
