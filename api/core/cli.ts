/**
 * What every operator command (keys, accounts, signin, marketplace) shares:
 * its I/O, usage errors, table output, and opening the state store with the
 * embedded store's lock reported clearly instead of corrupting it.
 */
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { openState, StateLockedError, type Sql } from './state/sql.ts';
import { migrate } from './state/migrations.ts';

export interface CliIO {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  /** Standard input, for secrets that must not appear on the command line. */
  readStdin?: () => Promise<string>;
}

/** A mistake in the command line: exit code 2 with the usage. */
export class UsageError extends Error {}

/**
 * A failure an operator command explains itself, for every module (keys, accounts, sign-in,
 * marketplace, listing): invalid input (exit 2), or an unknown or duplicate record (exit 1).
 * Each module names its own subclass so its callers can tell whose it is.
 */
export class OperatorError extends Error {
  constructor(message: string, readonly code: 'invalid' | 'not_found' | 'conflict') {
    super(message);
    this.name = new.target.name;
  }
}

/**
 * The one argument parser of the operator commands: node's parseArgs (strict, positionals
 * allowed), its refusals as UsageError; each command then checks its own verbs and options.
 */
export function parseCommandLine<O extends ParseArgsConfig['options']>(argv: string[], options: O) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export const splitList = (v: string): string[] =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');

export function fmtDate(d: Date | null): string {
  return d ? d.toISOString().replace('T', ' ').slice(0, 19) + 'Z' : '-';
}

/** Left-aligned columns with a dashed rule under the header. */
export function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)];
}

/**
 * Opens and migrates the state named by the environment (DATABASE_URL, else
 * PGlite under DATA_DIR), runs `fn`, closes. Returns exit code 2 with a clear
 * message when the embedded store is held by another process (the server).
 */
export async function withState(prog: string, io: CliIO, fn: (sql: Sql) => Promise<number>): Promise<number> {
  let sql: Sql;
  try {
    sql = await openState({ databaseUrl: io.env.DATABASE_URL, dataDir: io.env.DATA_DIR || './data' });
  } catch (err) {
    if (err instanceof StateLockedError) {
      io.err(`${prog}: ${err.message}`);
      return 2;
    }
    throw err;
  }
  try {
    await migrate(sql);
    return await fn(sql);
  } finally {
    await sql.close();
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(typeof c === 'string' ? Buffer.from(c) : c);
  return Buffer.concat(chunks).toString('utf8');
}

/** Runs `main` when `moduleUrl` is the script node was started with. */
export function runIfEntryPoint(
  moduleUrl: string,
  prog: string,
  main: (argv: string[], io: CliIO) => Promise<number>,
): void {
  if (process.argv[1] === undefined || moduleUrl !== pathToFileURL(process.argv[1]).href) return;
  main(process.argv.slice(2), {
    out: (l) => process.stdout.write(l + '\n'),
    err: (l) => process.stderr.write(l + '\n'),
    env: process.env,
    readStdin: () => readAll(process.stdin),
  }).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${prog}: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

/** How one operator command reads its arguments, does its work and explains its failures. */
export interface StateCommand<C extends { command: string }> {
  prog: string;
  usage: string;
  /** Reads argv; throws UsageError. `command: 'help'` prints the usage. */
  parse(argv: string[]): C;
  run(sql: Sql, cmd: C): Promise<number>;
  /** Exit code of a failure the command explains itself beyond OperatorError (2: the input, 1: the records), null otherwise. */
  exitCodeOf?(err: unknown): 1 | 2 | null;
  /** An open, migrated state instead of the environment's (tests). */
  sql?: Sql;
}

/**
 * The shape every state command shares: usage errors exit 2 with the usage, `help` prints it,
 * the work runs on the state (withState), and the failures the command explains are one line
 * `prog: message` with their exit code; anything else propagates (runIfEntryPoint: exit 1).
 */
export async function runStateCommand<C extends { command: string }>(argv: string[], io: CliIO, spec: StateCommand<C>): Promise<number> {
  let cmd: C;
  try {
    cmd = spec.parse(argv);
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.err(`${spec.prog}: ${err.message}`);
    io.err(spec.usage);
    return 2;
  }
  if (cmd.command === 'help') {
    io.out(spec.usage);
    return 0;
  }
  const work = async (sql: Sql): Promise<number> => {
    try {
      return await spec.run(sql, cmd);
    } catch (err) {
      const code = err instanceof UsageError ? 2 : err instanceof OperatorError ? (err.code === 'invalid' ? 2 : 1) : spec.exitCodeOf?.(err) ?? null;
      if (code === null) throw err;
      io.err(`${spec.prog}: ${(err as Error).message}`);
      return code;
    }
  };
  return spec.sql ? work(spec.sql) : withState(spec.prog, io, work);
}
