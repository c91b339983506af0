/**
 * Operator commands for listing API credentials (spec section 5).
 *
 *   npm run listing -- credentials create --boards gmtl,bxl [--label TEXT]
 *   npm run listing -- credentials list
 *   npm run listing -- credentials boards <id|apiKey hint> --boards gmtl
 *   npm run listing -- credentials disable <id|apiKey hint>
 *   npm run listing -- credentials enable <id|apiKey hint>
 *
 * The apiKey and apiToken are printed once, at creation; only their hashes are stored.
 */
import { fmtDate, runIfEntryPoint, runStateCommand, splitList, table, UsageError, type CliIO, parseCommandLine } from '../core/cli.ts';
import { createCredentialRepository, type CredentialRepository } from './credentials.ts';

export const USAGE = `Usage:
  listing credentials create --boards SLUG[,SLUG...] [--label TEXT]
  listing credentials list
  listing credentials boards <ID|KEY_HINT> --boards SLUG[,SLUG...]
  listing credentials disable <ID|KEY_HINT>
  listing credentials enable <ID|KEY_HINT>

The apiKey and apiToken are shown once, at creation; only their SHA-256 hashes are stored.
Environment: DATABASE_URL (PostgreSQL server) or DATA_DIR (embedded state at <DATA_DIR>/state, default ./data).`;

const OPTIONS = {
  boards: { type: 'string' },
  label: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;
type Values = { boards?: string; label?: string; help?: boolean };

const COMMANDS: Record<string, { options: (keyof Values)[]; required: (keyof Values)[]; args: number }> = {
  'credentials create': { options: ['boards', 'label'], required: ['boards'], args: 0 },
  'credentials list': { options: [], required: [], args: 0 },
  'credentials boards': { options: ['boards'], required: ['boards'], args: 1 },
  'credentials disable': { options: [], required: [], args: 1 },
  'credentials enable': { options: [], required: [], args: 1 },
};

function parse(argv: string[]): { command: string; args: string[]; values: Values } {
  const parsed = parseCommandLine(argv, OPTIONS);
  const values = parsed.values as Values;
  const [resource, verb, ...args] = parsed.positionals;
  if (resource === undefined || resource === 'help' || (values.help && verb === undefined)) return { command: 'help', args: [], values };
  const command = `${resource} ${verb ?? ''}`.trim();
  const spec = COMMANDS[command];
  if (!spec) throw new UsageError(`unknown command: ${command}`);
  for (const k of Object.keys(values) as (keyof Values)[]) if (k !== 'help' && !spec.options.includes(k)) throw new UsageError(`--${k} does not apply to ${command}`);
  for (const k of spec.required) if (values[k] === undefined) throw new UsageError(`${command} needs --${k}`);
  if (args.length !== spec.args) throw new UsageError(spec.args ? `${command} takes one credential id or apiKey hint` : `unexpected argument: ${args[0]}`);
  if (values.boards !== undefined && splitList(values.boards).length === 0) throw new UsageError('--boards needs at least one board slug');
  return { command, args, values };
}

function show(io: CliIO, c: Awaited<ReturnType<CredentialRepository['get']>>, verb: string): void {
  io.out(`${verb} credentials ${c.id} (${c.key_hint}...) on boards ${c.boards.map((b) => b.slug).join(', ')}${c.disabled_at ? ', disabled' : ''}`);
}

async function run(repo: CredentialRepository, command: string, args: string[], v: Values, io: CliIO): Promise<number> {
  switch (command) {
    case 'credentials create': {
      const { credential, apiKey, apiToken } = await repo.create({ boards: splitList(v.boards!), label: v.label });
      show(io, credential, 'created');
      io.out(`apiKey:   ${apiKey}`);
      io.out(`apiToken: ${apiToken}`);
      io.out('(shown once: give them to the client now)');
      return 0;
    }
    case 'credentials list': {
      const rows = (await repo.list()).map((c) => [
        String(c.id), `${c.key_hint}...`, c.boards.map((b) => b.slug).join(','), c.label ?? '', c.disabled_at ? 'disabled' : 'active', fmtDate(c.created_at),
      ]);
      for (const l of table(['ID', 'API KEY', 'BOARDS', 'LABEL', 'STATUS', 'CREATED'], rows)) io.out(l);
      return 0;
    }
    case 'credentials boards':
      show(io, await repo.setBoards(args[0], splitList(v.boards!)), 'updated');
      return 0;
    case 'credentials disable':
      show(io, await repo.setDisabled(args[0], true), 'disabled');
      return 0;
    case 'credentials enable':
      show(io, await repo.setDisabled(args[0], false), 'enabled');
      return 0;
  }
  throw new UsageError(`unknown command: ${command}`);
}

/** Runs the CLI; returns the exit code (0 ok, 1 not found, 2 usage or invalid input). */
export function main(argv: string[], io: CliIO): Promise<number> {
  return runStateCommand(argv, io, {
    prog: 'listing',
    usage: USAGE,
    parse,
    run: (sql, { command, args, values }) => run(createCredentialRepository(sql), command, args, values, io),
  });
}

runIfEntryPoint(import.meta.url, 'listing', main);
