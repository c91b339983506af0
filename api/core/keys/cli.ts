/**
 * API key administration.
 *
 *   npm run keys -- create --countries fr,ca,be [--domains location,market] [--sandbox] [--label TEXT] [--agency ID]
 *   npm run keys -- list
 *   npm run keys -- revoke <fingerprint-or-prefix>
 *
 * State: PostgreSQL when DATABASE_URL is set, else PGlite at <DATA_DIR>/state
 * (DATA_DIR defaults to ./data). Exit codes: 0 ok, 1 failure, 2 bad usage or
 * embedded state held by another process.
 */
import { fmtDate, runIfEntryPoint, splitList, table, UsageError, withState, type CliIO, parseCommandLine } from '../cli.ts';
import {
  AmbiguousKeyError,
  COUNTRIES,
  createKeyRepository,
  DOMAINS,
  KeyNotFoundError,
  KeyValidationError,
  parseCreateKeyInput,
  type KeyRecord,
} from './keys.ts';

export const USAGE = `Usage:
  keys create --countries fr,ca,be [--domains location,market] [--sandbox] [--label TEXT] [--agency ID]
  keys list
  keys revoke <fingerprint-or-prefix>

  countries: ${COUNTRIES.join(', ')}
  domains:   ${DOMAINS.join(', ')} (omit --domains for all)
  agency:    the id of the agency whose users manage the key in the client space (/space);
             without it the key is the operator's, managed here only

Environment: DATABASE_URL (PostgreSQL server) or DATA_DIR (embedded state at <DATA_DIR>/state, default ./data).`;

function describe(r: KeyRecord): string {
  return `${r.fingerprint.slice(0, 12)} (${r.prefixHint}…) sandbox=${r.sandbox} countries=${r.countries.join(',')} domains=${r.domains?.join(',') ?? 'all'}${r.label ? ` label=${JSON.stringify(r.label)}` : ''} owner=${owner(r)}`;
}

function owner(r: KeyRecord): string {
  return r.agencyId === null ? 'operator' : `agency ${r.agencyId}`;
}

function agencyId(value: string): number {
  const n = /^[1-9]\d{0,15}$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n)) throw new UsageError(`--agency must be an agency id (a positive integer), not ${JSON.stringify(value)}`);
  return n;
}

/** Parses argv (without node and script); throws UsageError. */
function parse(argv: string[]) {
  const parsed = parseCommandLine(argv, {
    countries: { type: 'string' },
    domains: { type: 'string' },
    sandbox: { type: 'boolean' },
    label: { type: 'string' },
    agency: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  if (values.help && command === undefined) return { command: 'help' as const };
  const createOnly = ['countries', 'domains', 'sandbox', 'label', 'agency'] as const;
  switch (command) {
    case 'create':
      if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
      if (values.countries === undefined) throw new UsageError('create needs --countries (e.g. --countries fr,ca,be)');
      return {
        command: 'create' as const,
        countries: splitList(values.countries),
        domains: values.domains === undefined ? null : splitList(values.domains),
        sandbox: values.sandbox ?? false,
        label: values.label ?? null,
        agencyId: values.agency === undefined ? null : agencyId(values.agency),
      };
    case 'list':
    case 'revoke': {
      const extra = createOnly.find((o) => values[o] !== undefined);
      if (extra) throw new UsageError(`--${extra} only applies to create`);
      if (command === 'list') {
        if (rest.length > 0) throw new UsageError(`unexpected argument: ${rest[0]}`);
        return { command: 'list' as const };
      }
      if (rest.length !== 1) throw new UsageError('revoke takes exactly one fingerprint or fingerprint prefix');
      return { command: 'revoke' as const, target: rest[0] };
    }
    case 'help':
      return { command: 'help' as const };
    case undefined:
      throw new UsageError('missing command');
    default:
      throw new UsageError(`unknown command: ${command}`);
  }
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], io: CliIO): Promise<number> {
  let cmd;
  try {
    cmd = parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`keys: ${err.message}`);
    io.err(USAGE);
    return 2;
  }
  if (cmd.command === 'help') {
    io.out(USAGE);
    return 0;
  }
  if (cmd.command === 'create') {
    // Validate before touching the state.
    try {
      parseCreateKeyInput(cmd);
    } catch (err) {
      if (!(err instanceof KeyValidationError)) throw err;
      io.err(`keys: ${err.message}`);
      io.err(USAGE);
      return 2;
    }
  }

  return withState('keys', io, async (sql) => {
    try {
      const repo = createKeyRepository(sql);
      switch (cmd.command) {
        case 'create': {
          const { key, record } = await repo.create({
            countries: cmd.countries,
            domains: cmd.domains,
            sandbox: cmd.sandbox,
            label: cmd.label,
            agencyId: cmd.agencyId,
          });
          io.out(key);
          io.out('This key is shown once and cannot be shown again: store it now (only its fingerprint is kept).');
          io.out(`created ${describe(record)}`);
          io.out(`fingerprint ${record.fingerprint}`);
          return 0;
        }
        case 'list': {
          const keys = await repo.list();
          if (keys.length === 0) {
            io.out('no keys');
            return 0;
          }
          const rows = keys.map((k) => [
            k.fingerprint.slice(0, 12),
            k.prefixHint,
            k.sandbox ? 'yes' : 'no',
            k.countries.join(','),
            k.domains?.join(',') ?? 'all',
            fmtDate(k.createdAt),
            fmtDate(k.revokedAt),
            owner(k),
            k.label ?? '',
          ]);
          for (const l of table(
            ['FINGERPRINT', 'PREFIX', 'SANDBOX', 'COUNTRIES', 'DOMAINS', 'CREATED', 'REVOKED', 'OWNER', 'LABEL'],
            rows,
          ))
            io.out(l);
          return 0;
        }
        case 'revoke': {
          const { record, alreadyRevoked } = await repo.revoke(cmd.target);
          io.out(
            alreadyRevoked
              ? `already revoked at ${fmtDate(record.revokedAt)}: ${describe(record)}`
              : `revoked ${describe(record)}`,
          );
          return 0;
        }
      }
    } catch (err) {
      if (err instanceof KeyValidationError) {
        io.err(`keys: ${err.message}`);
        return 2;
      }
      if (err instanceof KeyNotFoundError || err instanceof AmbiguousKeyError) {
        io.err(`keys: ${err.message}`);
        return 1;
      }
      throw err;
    }
  });
}

runIfEntryPoint(import.meta.url, 'keys', main);
