import type { Migration } from '../migrations.ts';

/**
 * Listing API state (spec listing-api-versions.md): credentials with their rights per board,
 * properties and gateways, and the listing's own fields of the shared agencies and users
 * (keyed by their id: the shared tables stay the only copy of an agency or a user).
 */
export const migration: Migration = {
  id: '005_listing',
  statements: [
    `CREATE TABLE listing_credentials (
       id          bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       key_hash    text NOT NULL UNIQUE CHECK (key_hash ~ '^[0-9a-f]{64}$'),
       key_hint    text NOT NULL,
       token_hash  text NOT NULL CHECK (token_hash ~ '^[0-9a-f]{64}$'),
       label       text,
       created_at  timestamptz NOT NULL DEFAULT now(),
       disabled_at timestamptz
     )`,
    `COMMENT ON TABLE listing_credentials IS 'apiKey/apiToken pairs; only their SHA-256 hashes are stored'`,
    `CREATE TABLE listing_credential_boards (
       credential_id bigint NOT NULL REFERENCES listing_credentials (id) ON DELETE CASCADE,
       board_id      bigint NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
       PRIMARY KEY (credential_id, board_id)
     )`,
    `CREATE TABLE listing_agency_profiles (
       agency_id bigint PRIMARY KEY REFERENCES agencies (id) ON DELETE CASCADE,
       data      jsonb NOT NULL DEFAULT '{}'
     )`,
    `CREATE TABLE listing_user_profiles (
       user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
       data    jsonb NOT NULL DEFAULT '{}'
     )`,
    `CREATE TABLE listing_gateways (
       id           bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       board_id     bigint NOT NULL REFERENCES boards (id),
       code         text NOT NULL,
       name         text NOT NULL,
       kind         text NOT NULL,
       format       text NOT NULL,
       endpoint_url text,
       active       boolean NOT NULL DEFAULT true,
       created_at   timestamptz NOT NULL DEFAULT now(),
       updated_at   timestamptz NOT NULL DEFAULT now(),
       UNIQUE (board_id, code)
     )`,
    // Columns the search filters on; the rest of the listing (address, rooms, lots, life lease,
    // photos, description...) is one jsonb document in the 3.2 write shape.
    `CREATE TABLE listing_properties (
       id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       board_id         bigint NOT NULL REFERENCES boards (id),
       agency_id        bigint REFERENCES agencies (id),
       user_id          bigint REFERENCES users (id),
       status           text NOT NULL,
       transaction_type text NOT NULL,
       property_type    text NOT NULL,
       price            double precision,
       rent             double precision,
       sold_price       double precision,
       currency         text NOT NULL,
       living_area_m2   double precision,
       bedrooms         integer,
       bathrooms        integer,
       city_key         text NOT NULL,
       postal_key       text,
       amenities        text[] NOT NULL DEFAULT '{}',
       data             jsonb NOT NULL,
       created_at       timestamptz NOT NULL DEFAULT now(),
       updated_at       timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX listing_properties_board ON listing_properties (board_id, id)`,
    `CREATE INDEX listing_properties_city ON listing_properties (board_id, city_key)`,
    `CREATE TABLE listing_property_gateways (
       property_id bigint NOT NULL REFERENCES listing_properties (id) ON DELETE CASCADE,
       gateway_id  bigint NOT NULL REFERENCES listing_gateways (id) ON DELETE CASCADE,
       PRIMARY KEY (property_id, gateway_id)
     )`,
    `CREATE INDEX listing_property_gateways_gateway ON listing_property_gateways (gateway_id)`,
  ],
};
