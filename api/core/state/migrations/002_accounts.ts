import type { Migration } from '../migrations.ts';

/**
 * The shared account model (DESIGN.md): boards hold agencies, agencies hold
 * users. Sign-in, marketplace and listing modules reference these tables and
 * add their own; none of them keeps a second copy of a user.
 */
export const migration: Migration = {
  id: '002_accounts',
  statements: [
    `CREATE TABLE boards (
       id               bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       slug             text NOT NULL UNIQUE CHECK (slug ~ '^[a-z0-9][a-z0-9-]{0,62}$'),
       name             text NOT NULL CHECK (name <> ''),
       default_language text NOT NULL CHECK (default_language ~ '^[a-z]{2}(-[A-Z]{2})?$'),
       created_at       timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE TABLE agencies (
       id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       board_id   bigint NOT NULL REFERENCES boards (id),
       name       text NOT NULL CHECK (name <> ''),
       country    text NOT NULL CHECK (country ~ '^[A-Z]{2}$'),
       created_at timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE INDEX agencies_board ON agencies (board_id)`,
    `CREATE TABLE users (
       id            bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
       uid           text NOT NULL UNIQUE,
       agency_id     bigint NOT NULL REFERENCES agencies (id),
       email         text NOT NULL CHECK (email LIKE '%_@_%'),
       first_name    text NOT NULL,
       last_name     text NOT NULL,
       username      text UNIQUE,
       languages     text[] NOT NULL DEFAULT '{}',
       phone         text,
       image_url     text,
       password_hash text,
       sign_in_count integer NOT NULL DEFAULT 0,
       disabled_at   timestamptz,
       created_at    timestamptz NOT NULL DEFAULT now(),
       updated_at    timestamptz NOT NULL DEFAULT now()
     )`,
    `CREATE UNIQUE INDEX users_email ON users (lower(email))`,
    `CREATE INDEX users_agency ON users (agency_id)`,
    `COMMENT ON COLUMN users.password_hash IS 'scrypt$N$r$p$salt$hash (base64); NULL: no password sign-in'`,
  ],
};
