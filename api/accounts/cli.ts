/**
 * Operator commands for the shared account model.
 *
 *   npm run accounts -- boards create --slug SLUG --name NAME --default-language fr
 *   npm run accounts -- boards list
 *   npm run accounts -- agencies create --board SLUG|ID --name NAME --country FR
 *   npm run accounts -- agencies list [--board SLUG|ID]
 *   npm run accounts -- users create --agency ID --email E --first-name F --last-name L
 *                        [--languages fr,en] [--phone P] [--image-url URL] [--uid UID]
 *                        [--username U] [--password-stdin | --no-password]
 *   npm run accounts -- users list [--agency ID]
 *   npm run accounts -- users set-password <id|email> [--password-stdin]
 *
 * A password is never taken on the command line (it would show in `ps` and
 * the shell history): it is read from stdin with --password-stdin, or
 * generated and printed once.
 */
import { randomBytes } from 'node:crypto';
import { fmtDate, runIfEntryPoint, runStateCommand, splitList, table, UsageError, type CliIO, parseCommandLine } from '../core/cli.ts';
import { AccountError, createAccountRepository, type AccountRepository } from './accounts.ts';

export const USAGE = `Usage:
  accounts boards create --slug SLUG --name NAME --default-language LANG
  accounts boards list
  accounts agencies create --board SLUG|ID --name NAME --country CC
  accounts agencies list [--board SLUG|ID]
  accounts users create --agency ID --email EMAIL --first-name F --last-name L
                        [--languages fr,en] [--phone P] [--image-url URL] [--uid UID] [--username U]
                        [--password-stdin | --no-password]
  accounts users list [--agency ID]
  accounts users set-password <ID|EMAIL> [--password-stdin]

Without --password-stdin a password is generated and printed once.
Environment: DATABASE_URL (PostgreSQL server) or DATA_DIR (embedded state at <DATA_DIR>/state, default ./data).`;

const OPTIONS = {
  slug: { type: 'string' },
  name: { type: 'string' },
  'default-language': { type: 'string' },
  board: { type: 'string' },
  country: { type: 'string' },
  agency: { type: 'string' },
  email: { type: 'string' },
  'first-name': { type: 'string' },
  'last-name': { type: 'string' },
  languages: { type: 'string' },
  phone: { type: 'string' },
  'image-url': { type: 'string' },
  uid: { type: 'string' },
  username: { type: 'string' },
  'password-stdin': { type: 'boolean' },
  'no-password': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean };

/** Which options each command accepts; anything else is a usage error. */
const ALLOWED: Record<string, (keyof typeof OPTIONS)[]> = {
  'boards create': ['slug', 'name', 'default-language'],
  'boards list': [],
  'agencies create': ['board', 'name', 'country'],
  'agencies list': ['board'],
  'users create': [
    'agency', 'email', 'first-name', 'last-name', 'languages', 'phone', 'image-url', 'uid', 'username',
    'password-stdin', 'no-password',
  ],
  'users list': ['agency'],
  'users set-password': ['password-stdin'],
};

const REQUIRED: Record<string, (keyof typeof OPTIONS)[]> = {
  'boards create': ['slug', 'name', 'default-language'],
  'agencies create': ['board', 'name', 'country'],
  'users create': ['agency', 'email', 'first-name', 'last-name'],
};

function parse(argv: string[]): { command: string; args: string[]; values: Values } {
  const parsed = parseCommandLine(argv, OPTIONS);
  const values = parsed.values as Values;
  const [resource, verb, ...args] = parsed.positionals;
  if (resource === undefined || resource === 'help' || (values.help && verb === undefined))
    return { command: 'help', args: [], values };
  const command = `${resource} ${verb ?? ''}`.trim();
  const allowed = ALLOWED[command];
  if (!allowed) throw new UsageError(`unknown command: ${command}`);
  for (const k of Object.keys(values) as (keyof typeof OPTIONS)[])
    if (k !== 'help' && !allowed.includes(k)) throw new UsageError(`--${k} does not apply to ${command}`);
  for (const k of REQUIRED[command] ?? []) if (values[k] === undefined) throw new UsageError(`${command} needs --${k}`);
  const wantsArg = command === 'users set-password' ? 1 : 0;
  if (args.length !== wantsArg)
    throw new UsageError(wantsArg ? `${command} takes one user id or e-mail` : `unexpected argument: ${args[0]}`);
  if (values['password-stdin'] && values['no-password'])
    throw new UsageError('--password-stdin and --no-password exclude each other');
  return { command, args, values };
}

function integer(v: string, option: string): number {
  if (!/^\d+$/.test(v)) throw new UsageError(`--${option} must be a numeric id, not ${JSON.stringify(v)}`);
  return Number(v);
}

const generatePassword = () => randomBytes(15).toString('base64url');

async function readPassword(io: CliIO): Promise<string> {
  if (!io.readStdin) throw new UsageError('--password-stdin needs a standard input');
  return (await io.readStdin()).replace(/\r?\n$/, '');
}

async function run(repo: AccountRepository, command: string, args: string[], v: Values, io: CliIO): Promise<number> {
  switch (command) {
    case 'boards create': {
      const b = await repo.createBoard({ slug: v.slug!, name: v.name!, default_language: v['default-language']! });
      io.out(`created board ${b.id} ${b.slug} (${b.name}, ${b.default_language})`);
      return 0;
    }
    case 'boards list': {
      const rows = (await repo.listBoards()).map((b) => [String(b.id), b.slug, b.name, b.default_language, fmtDate(b.created_at)]);
      for (const l of table(['ID', 'SLUG', 'NAME', 'LANGUAGE', 'CREATED'], rows)) io.out(l);
      return 0;
    }
    case 'agencies create': {
      const board = await repo.board(v.board!);
      const a = await repo.createAgency({ board_id: board.id, name: v.name!, country: v.country! });
      io.out(`created agency ${a.id} ${a.name} (${a.country}) in board ${board.slug}`);
      return 0;
    }
    case 'agencies list': {
      const boardId = v.board === undefined ? undefined : (await repo.board(v.board)).id;
      const rows = (await repo.listAgencies(boardId)).map((a) => [String(a.id), String(a.board_id), a.name, a.country]);
      for (const l of table(['ID', 'BOARD', 'NAME', 'COUNTRY'], rows)) io.out(l);
      return 0;
    }
    case 'users create': {
      const generated = !v['password-stdin'] && !v['no-password'];
      const password = v['password-stdin'] ? await readPassword(io) : generated ? generatePassword() : undefined;
      const u = await repo.createUser({
        agency_id: integer(v.agency!, 'agency'),
        email: v.email!,
        first_name: v['first-name']!,
        last_name: v['last-name']!,
        languages: v.languages === undefined ? [] : splitList(v.languages),
        phone: v.phone ?? null,
        image_url: v['image-url'] ?? null,
        uid: v.uid,
        username: v.username,
        password,
      });
      io.out(`created user ${u.id} ${u.email} (uid ${u.uid}) in agency ${u.agency.name}, board ${u.board.slug}`);
      if (generated) io.out(`password: ${password}  (shown once: give it to the user now)`);
      return 0;
    }
    case 'users list': {
      const agencyId = v.agency === undefined ? undefined : integer(v.agency, 'agency');
      const rows = (await repo.listUsers(agencyId)).map((u) => [
        String(u.id),
        u.email,
        `${u.first_name} ${u.last_name}`,
        String(u.agency_id),
        u.languages.join(','),
        u.disabled_at ? 'disabled' : 'active',
      ]);
      for (const l of table(['ID', 'EMAIL', 'NAME', 'AGENCY', 'LANGUAGES', 'STATUS'], rows)) io.out(l);
      return 0;
    }
    case 'users set-password': {
      const ref = args[0];
      const user = /^\d+$/.test(ref) ? await repo.user(Number(ref)) : await repo.userByEmail(ref);
      if (!user) throw new AccountError(`user ${ref} not found`, 'not_found');
      const password = v['password-stdin'] ? await readPassword(io) : generatePassword();
      await repo.setPassword(user.id, password);
      io.out(`password set for user ${user.id} ${user.email}`);
      if (!v['password-stdin']) io.out(`password: ${password}  (shown once: give it to the user now)`);
      return 0;
    }
  }
  throw new UsageError(`unknown command: ${command}`);
}

/** Runs the CLI; returns the exit code (0 ok, 1 not found or conflict, 2 usage or invalid input). */
export function main(argv: string[], io: CliIO): Promise<number> {
  return runStateCommand(argv, io, {
    prog: 'accounts',
    usage: USAGE,
    parse,
    run: (sql, { command, args, values }) => run(createAccountRepository(sql), command, args, values, io),
  });
}

runIfEntryPoint(import.meta.url, 'accounts', main);
