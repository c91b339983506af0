/**
 * Single-process lock on an embedded (PGlite) data directory.
 *
 * PGlite has no multi-process coordination: two processes opening the same
 * data directory would both write to it and corrupt it. The lock is a file
 * `<dir>.lock` created with O_EXCL (atomic "create if absent") holding the
 * owner's pid, hostname and a random token. A lock whose pid is dead (on this
 * host) is stale and taken over; a live one makes the open fail with
 * {@link StateLockedError} before anything touches the data directory.
 *
 * Known limits: a recycled pid makes a stale lock look held (the error
 * message tells the operator which pid and file to check); a lock written on
 * another host (shared filesystem) is always considered held.
 */
import { closeSync, linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';

export class StateLockedError extends Error {
  override readonly name = 'StateLockedError';
  constructor(
    /** The data directory that is held. */
    readonly dir: string,
    /** Pid of the holder, when known. */
    readonly pid: number | null,
    /** The lock file. */
    readonly lockFile: string,
  ) {
    super(
      `the embedded state at ${dir} is held by process ${pid ?? '(unknown)'} (the server?); ` +
        `stop it or set DATABASE_URL to a PostgreSQL server` +
        ` (lock file: ${lockFile}; delete it only if that process is not running)`,
    );
  }
}

export interface DirLock {
  readonly lockFile: string;
  /** Removes the lock file if it is still ours. Idempotent. */
  release(): void;
}

interface LockContent {
  pid: number | null;
  host: string | null;
  token: string | null;
  raw: string;
}

/** Locks currently held by this process, released on exit if not before. */
const held = new Map<string, string>(); // lockFile -> token
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [file, token] of held) releaseFile(file, token);
    held.clear();
  });
}

/** A partially written lock younger than this is treated as being created. */
const FRESH_MS = 5_000;

export function lockFileFor(dir: string): string {
  return `${dir.replace(/[\\/]+$/, '')}.lock`;
}

/**
 * Takes the lock on `dir` (an absolute data directory path) or throws
 * {@link StateLockedError}.
 */
export function acquireDirLock(dir: string): DirLock {
  const lockFile = lockFileFor(dir);
  const token = randomBytes(12).toString('hex');
  const body = JSON.stringify({ pid: process.pid, host: hostname(), token, since: new Date().toISOString() }) + '\n';

  for (let attempt = 0; attempt < 5; attempt++) {
    let fd: number;
    try {
      fd = openSync(lockFile, 'wx', 0o644);
    } catch (err) {
      if (errno(err) !== 'EEXIST') throw err;
      const current = readLock(lockFile);
      if (current === null) continue; // vanished meanwhile: retry
      if (!isStale(current, lockFile)) throw new StateLockedError(dir, current.pid, lockFile);
      takeOver(lockFile, current, dir);
      continue;
    }
    try {
      writeSync(fd, body);
    } finally {
      closeSync(fd);
    }
    held.set(lockFile, token);
    installExitHook();
    let released = false;
    return {
      lockFile,
      release() {
        if (released) return;
        released = true;
        held.delete(lockFile);
        releaseFile(lockFile, token);
      },
    };
  }
  // Repeated contention with other processes: report whoever holds it now.
  throw new StateLockedError(dir, readLock(lockFile)?.pid ?? null, lockFile);
}

function releaseFile(lockFile: string, token: string): void {
  const current = readLock(lockFile);
  if (current?.token !== token) return; // not ours any more
  try {
    unlinkSync(lockFile);
  } catch {
    /* already gone */
  }
}

function readLock(lockFile: string): LockContent | null {
  let raw: string;
  try {
    raw = readFileSync(lockFile, 'utf8');
  } catch (err) {
    if (errno(err) === 'ENOENT') return null;
    throw err;
  }
  type Stored = { pid?: unknown; host?: unknown; token?: unknown };
  let parsed: Stored | null = null;
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null) parsed = value as Stored;
  } catch {
    /* not JSON */
  }
  if (parsed !== null) {
    return {
      pid: Number.isSafeInteger(parsed.pid) && (parsed.pid as number) > 0 ? (parsed.pid as number) : null,
      host: typeof parsed.host === 'string' ? parsed.host : null,
      token: typeof parsed.token === 'string' ? parsed.token : null,
      raw,
    };
  }
  // Tolerate a bare pid (hand-written) or a partial write.
  const pid = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  return { pid: Number.isSafeInteger(pid) && pid > 0 ? pid : null, host: null, token: null, raw };
}

function isStale(lock: LockContent, lockFile: string): boolean {
  if (lock.pid === null) {
    // Empty or garbled: maybe being written right now by its creator.
    try {
      return Date.now() - statSync(lockFile).mtimeMs > FRESH_MS;
    } catch {
      return true;
    }
  }
  if (lock.host !== null && lock.host !== hostname()) return false; // cannot check a remote pid
  return !isAlive(lock.pid);
}

/** Whether a process of this machine is running (one of another user counts). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errno(err) === 'EPERM'; // exists, owned by someone else
  }
}

/**
 * Removes a stale lock without clobbering a fresh one that another process
 * may have created in between: move it aside atomically, check that what was
 * moved is the stale lock we inspected, and put it back otherwise.
 */
function takeOver(lockFile: string, stale: LockContent, dir: string): void {
  const aside = `${lockFile}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(lockFile, aside);
  } catch (err) {
    if (errno(err) === 'ENOENT') return; // someone else removed it: retry
    throw err;
  }
  const moved = readLock(aside);
  if (moved !== null && moved.raw !== stale.raw) {
    // We moved a fresh lock: restore it (link fails if yet another appeared).
    try {
      linkSync(aside, lockFile);
    } catch {
      /* best effort */
    }
    try {
      unlinkSync(aside);
    } catch {
      /* ignore */
    }
    throw new StateLockedError(dir, moved.pid, lockFile);
  }
  try {
    unlinkSync(aside);
  } catch {
    /* ignore */
  }
}

function errno(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err ? String((err as { code: unknown }).code) : undefined;
}
