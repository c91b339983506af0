/**
 * Operator commands for the partner sign-in.
 *
 *   npm run signin -- clients create --name NAME --redirect-uri URI [--redirect-uri URI ...]
 *                     --type confidential|public [--initiate-login-uri URI]
 *   npm run signin -- clients set-initiate-login-uri CLIENT_ID URI|none
 *   npm run signin -- clients list
 *   npm run signin -- clients revoke CLIENT_ID
 *
 * A confidential client's secret is printed once and stored only as a hash.
 * Revoking a client also removes every grant, code and token issued to it.
 */
import { CLIENT_TYPES, type ClientType } from '../../schemas/signin.ts';
import { fmtDate, runIfEntryPoint, runStateCommand, table, UsageError, type CliIO, parseCommandLine } from '../core/cli.ts';
import { createClientRepository, type ClientRepository } from './clients.ts';

export const USAGE = `Usage:
  signin clients create --name NAME --redirect-uri URI [--redirect-uri URI ...] --type confidential|public
                        [--initiate-login-uri URI]
  signin clients set-initiate-login-uri [--] CLIENT_ID URI|none
  signin clients list
  signin clients revoke [--] CLIENT_ID   (-- before an id that starts with '-')

The client secret of a confidential client is printed once: give it to the partner now.
Revoking a client withdraws every consent, code and token issued to it.
--initiate-login-uri: where the client space sends a user who opens one of the partner's services
(OpenID Connect third-party initiated login); https, or http on localhost, like redirect URIs.
Environment: DATABASE_URL (PostgreSQL server) or DATA_DIR (embedded state at <DATA_DIR>/state, default ./data).`;

const OPTIONS = {
  name: { type: 'string' },
  'redirect-uri': { type: 'string', multiple: true },
  type: { type: 'string' },
  'initiate-login-uri': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

interface Values {
  name?: string;
  'redirect-uri'?: string[];
  type?: string;
  'initiate-login-uri'?: string;
  help?: boolean;
}

const ALLOWED: Record<string, (keyof Values)[]> = {
  'clients create': ['name', 'redirect-uri', 'type', 'initiate-login-uri'],
  'clients set-initiate-login-uri': [],
  'clients list': [],
  'clients revoke': [],
};

function parse(argv: string[]): { command: string; args: string[]; values: Values } {
  const parsed = parseCommandLine(argv, OPTIONS);
  const values = parsed.values as Values;
  const [resource, verb, ...args] = parsed.positionals;
  if (resource === undefined || resource === 'help' || (values.help && verb === undefined)) return { command: 'help', args: [], values };
  const command = `${resource} ${verb ?? ''}`.trim();
  const allowed = ALLOWED[command];
  if (!allowed) throw new UsageError(`unknown command: ${command}`);
  for (const k of Object.keys(values) as (keyof Values)[])
    if (k !== 'help' && !allowed.includes(k)) throw new UsageError(`--${k} does not apply to ${command}`);
  if (command === 'clients create') {
    if (values.name === undefined) throw new UsageError('clients create needs --name');
    if (!values['redirect-uri']?.length) throw new UsageError('clients create needs at least one --redirect-uri');
    if (values.type === undefined) throw new UsageError('clients create needs --type confidential|public');
    if (!(CLIENT_TYPES as readonly string[]).includes(values.type))
      throw new UsageError(`--type must be confidential or public, not ${JSON.stringify(values.type)}`);
  }
  const wantsArg = command === 'clients revoke' ? 1 : command === 'clients set-initiate-login-uri' ? 2 : 0;
  if (args.length !== wantsArg) {
    throw new UsageError(wantsArg === 2 ? `${command} takes a client id and a URI (or none)` : wantsArg ? `${command} takes one client id` : `unexpected argument: ${args[0]}`);
  }
  return { command, args, values };
}

async function run(repo: ClientRepository, command: string, args: string[], v: Values, io: CliIO): Promise<number> {
  switch (command) {
    case 'clients create': {
      const { client, secret } = await repo.create({
        name: v.name, redirect_uris: v['redirect-uri'], client_type: v.type as ClientType, initiate_login_uri: v['initiate-login-uri'],
      });
      io.out(`created ${client.client_type} client ${client.name}`);
      io.out(`client_id: ${client.client_id}`);
      if (secret) io.out(`client_secret: ${secret}  (shown once: give it to the partner now)`);
      else io.out('no client secret: a public client authenticates with PKCE only');
      for (const uri of client.redirect_uris) io.out(`redirect_uri: ${uri}`);
      if (client.initiate_login_uri) io.out(`initiate_login_uri: ${client.initiate_login_uri}`);
      return 0;
    }
    case 'clients set-initiate-login-uri': {
      const c = await repo.setInitiateLoginUri(args[0], args[1] === 'none' ? null : args[1]);
      io.out(c.initiate_login_uri ? `client ${c.client_id}: initiate_login_uri ${c.initiate_login_uri}` : `client ${c.client_id}: no initiate_login_uri`);
      return 0;
    }
    case 'clients list': {
      const rows = (await repo.list()).map((c) => [
        c.client_id,
        c.name,
        c.client_type,
        c.redirect_uris.join(' '),
        c.initiate_login_uri ?? '',
        fmtDate(c.created_at),
        c.revoked_at ? `revoked ${fmtDate(c.revoked_at)}` : 'active',
      ]);
      for (const l of table(['CLIENT_ID', 'NAME', 'TYPE', 'REDIRECT_URIS', 'INITIATE_LOGIN_URI', 'CREATED', 'STATUS'], rows)) io.out(l);
      return 0;
    }
    case 'clients revoke': {
      const { removed } = await repo.revoke(args[0]);
      io.out(`revoked client ${args[0]}; ${removed} grant(s), code(s), token(s) and pending sign-in(s) removed`);
      return 0;
    }
  }
  throw new UsageError(`unknown command: ${command}`);
}

/** Runs the CLI; returns the exit code (0 ok, 1 not found, 2 usage or invalid input). */
export function main(argv: string[], io: CliIO): Promise<number> {
  return runStateCommand(argv, io, {
    prog: 'signin',
    usage: USAGE,
    parse,
    run: (sql, { command, args, values }) => run(createClientRepository(sql), command, args, values, io),
  });
}

runIfEntryPoint(import.meta.url, 'signin', main);
