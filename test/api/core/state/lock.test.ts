import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockFileFor, openPglite, StateLockedError } from '../../../../api/core/state/sql.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const sqlModule = pathToFileURL(path.join(root, 'api/core/state/sql.ts')).href;

/** A pid that certainly belonged to a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '0']);
  const pid = child.pid!;
  await new Promise((r) => child.on('exit', r));
  return pid;
}

describe('embedded state lock (PGlite data dir)', () => {
  let base: string;
  beforeAll(() => {
    base = mkdtempSync(path.join(tmpdir(), 'state-lock-'));
  });
  afterAll(() => {
    rmSync(base, { recursive: true, force: true });
  });

  it('refuses a second open while the first is open; the first keeps working', async () => {
    const dir = path.join(base, 'twice');
    const first = await openPglite(dir);
    await first.query(`CREATE TABLE kv (k text PRIMARY KEY, v text)`);
    await first.query(`INSERT INTO kv VALUES ($1, $2)`, ['a', '1']);

    let caught: unknown;
    try {
      await openPglite(dir);
    } catch (err) {
      caught = err;
    }
    expect(caught).toBeInstanceOf(StateLockedError);
    const err = caught as StateLockedError;
    expect(err.pid).toBe(process.pid);
    expect(err.dir).toBe(path.resolve(dir));
    expect(err.message).toContain(`the embedded state at ${path.resolve(dir)} is held by process ${process.pid}`);
    expect(err.message).toContain('set DATABASE_URL');

    // The failed open left the lock and the data alone.
    await first.query(`INSERT INTO kv VALUES ($1, $2)`, ['b', '2']);
    expect(await first.query(`SELECT k, v FROM kv ORDER BY k`)).toEqual([
      { k: 'a', v: '1' },
      { k: 'b', v: '2' },
    ]);
    expect(JSON.parse(readFileSync(lockFileFor(path.resolve(dir)), 'utf8')).pid).toBe(process.pid);
    await first.close();
    expect(existsSync(lockFileFor(path.resolve(dir)))).toBe(false);

    const reopened = await openPglite(dir);
    expect(await reopened.query(`SELECT count(*)::int AS n FROM kv`)).toEqual([{ n: 2 }]);
    await reopened.close();
  });

  it('takes over a stale lock left by a dead process', async () => {
    const dir = path.join(base, 'stale');
    writeFileSync(lockFileFor(dir), JSON.stringify({ pid: await deadPid(), token: 'old' }) + '\n');
    const sql = await openPglite(dir);
    expect(JSON.parse(readFileSync(lockFileFor(dir), 'utf8')).pid).toBe(process.pid);
    await sql.close();
    expect(existsSync(lockFileFor(dir))).toBe(false);
  });

  it('accepts a bare pid in a hand-written lock file', async () => {
    const dir = path.join(base, 'bare');
    writeFileSync(lockFileFor(dir), `${process.ppid}\n`);
    await expect(openPglite(dir)).rejects.toMatchObject({ name: 'StateLockedError', pid: process.ppid });
    writeFileSync(lockFileFor(dir), `${await deadPid()}\n`);
    const sql = await openPglite(dir);
    await sql.close();
  });

  it('treats a fresh empty lock file as being written (held)', async () => {
    const dir = path.join(base, 'empty');
    writeFileSync(lockFileFor(dir), '');
    await expect(openPglite(dir)).rejects.toBeInstanceOf(StateLockedError);
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(false); // nothing touched
    rmSync(lockFileFor(dir));
  });

  it('close() is idempotent and releases only its own lock', async () => {
    const dir = path.join(base, 'idem');
    const sql = await openPglite(dir);
    await sql.close();
    // Someone else takes the dir; a second close() of ours must not remove their lock.
    writeFileSync(lockFileFor(dir), JSON.stringify({ pid: process.ppid, token: 'theirs' }));
    await sql.close();
    expect(existsSync(lockFileFor(dir))).toBe(true);
    rmSync(lockFileFor(dir));
  });

  describe('held by another process', () => {
    let child: ChildProcess;
    const dir = () => path.join(base, 'shared');

    beforeAll(async () => {
      const script = path.join(base, 'holder.mts');
      writeFileSync(
        script,
        `import { openPglite } from ${JSON.stringify(sqlModule)};
const sql = await openPglite(process.argv[2]);
await sql.query('CREATE TABLE IF NOT EXISTS marks (n int)');
await sql.query('INSERT INTO marks VALUES (1)');
process.stdout.write('ready\\n');
process.stdin.resume();
process.stdin.on('end', async () => { await sql.close(); process.exit(0); });
`,
      );
      child = spawn(process.execPath, ['--import', 'tsx', script, dir()], {
        cwd: root,
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve());
        child.on('exit', (code) => reject(new Error(`holder exited early (${code})`)));
      });
    });
    afterAll(() => {
      if (child.exitCode === null) child.kill('SIGKILL');
    });

    it('throws StateLockedError naming the holder pid', async () => {
      await expect(openPglite(dir())).rejects.toMatchObject({ name: 'StateLockedError', pid: child.pid });
    });

    it('after the holder is killed (no cleanup), the stale lock is taken over and data is intact', async () => {
      const exited = new Promise((r) => child.on('exit', r));
      child.kill('SIGKILL');
      await exited;
      expect(existsSync(lockFileFor(dir()))).toBe(true);
      const sql = await openPglite(dir());
      expect(await sql.query(`SELECT n FROM marks`)).toEqual([{ n: 1 }]);
      await sql.close();
    });
  });
});
