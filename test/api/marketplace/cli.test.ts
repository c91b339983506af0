import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Clock } from '../../../api/core/clock.ts';
import { migrate } from '../../../api/core/state/migrations.ts';
import { createCatalog } from '../../../api/marketplace/catalog.ts';
import { main as marketplace } from '../../../api/marketplace/cli.ts';
import { backends, type Isolated } from '../core/state/backends.ts';
import { startReceiver, type Receiver } from './fixture.ts';

describe.each(backends)('marketplace CLI on $name', (backend) => {
  let env: Record<string, string>;
  let dataDir: string;
  let db: Isolated;
  let receiver: Receiver;
  const secrets = new Map<string, string>();
  const clock: Clock = { now: () => new Date('2026-01-31T09:00:00Z') };

  // On PostgreSQL each command opens the state named by DATABASE_URL, as an operator's would;
  // the embedded store is handed in open (opening it from disk per command takes a second).
  async function run(args: string[]) {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (l: string) => out.push(l), err: (l: string) => err.push(l), env };
    const code = await marketplace(args, io, { clock, sql: backend.name === 'postgres' ? undefined : db.sql });
    return { code, out: out.join('\n'), err: err.join('\n') };
  }
  const market = (...args: string[]) => run(args);
  const ok = async (...args: string[]) => {
    const r = await market(...args);
    expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(0);
    return r.out;
  };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'market-cli-'));
    db = await backend.open();
    await migrate(db.sql);
    env = { ...(backend.name === 'postgres' ? { DATABASE_URL: db.url! } : { DATA_DIR: dataDir }), MARKETPLACE_WEBHOOK_ALLOW_PRIVATE: 'true' };
    receiver = await startReceiver(secrets);
  });
  afterAll(async () => {
    await receiver?.close();
    await db?.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('sets up a store, a supplier access (credentials printed once), products, plans and a client', async () => {
    // Users come from the shared account model (npm run accounts).
    const accounts = createCatalog(db.sql, clock).accounts;
    const board = await accounts.createBoard({ slug: 'gmtl', name: 'Grand Montréal', default_language: 'fr-CA' });
    const agency = await accounts.createAgency({ board_id: board.id, name: 'Immobilier Plateau', country: 'CA' });
    await accounts.createUser({ agency_id: agency.id, email: 'julie@example.ca', first_name: 'Julie', last_name: 'Tremblay' });

    expect(await ok('stores', 'create', '--slug', 'maison', '--name', 'Maison')).toMatch(/created store \d+ maison .*\/stores\/maison\/fr\/api\/v1\//);
    await ok('partners', 'create', '--code', 'ACME', '--name', 'Acme tours');
    const granted = await ok('partners', 'grant', '--partner', 'ACME', '--store', 'maison', '--access', 'supplier', '--webhook-url', receiver.url('ACME'));
    const apiKey = /apiKey: (\S+)/.exec(granted)![1]!;
    const apiToken = /apiToken: (\S+)/.exec(granted)![1]!;
    secrets.set('ACME', /webhook secret: (whsec_\S+)/.exec(granted)![1]!);
    expect(await ok('partners', 'accesses')).toMatch(/ACME\s+maison\s+supplier\s+mpk_/);
    expect(await ok('partners', 'accesses')).not.toContain(apiKey);

    await ok('products', 'create', '--partner', 'ACME', '--sku', 'ACME-STATS', '--name', 'Statistics');
    await ok('products', 'create', '--partner', 'ACME', '--sku', 'ACME-TOURS', '--name', 'Virtual tours');
    expect(await ok('plans', 'create', '--product', 'ACME-STATS', '--sku', 'ACME-STATS-M', '--name', 'Monthly', '--mode', 'plan_month')).toMatch(/plan_month, 1 month/);
    expect(await ok('plans', 'create', '--product', 'ACME-TOURS', '--sku', 'ACME-TOURS-T10', '--name', '10 tours', '--mode', 'tokens', '--tokens', '10', '--option', 'hd=HD rendering')).toMatch(/10 tokens, 12 month/);
    expect(await ok('plans', 'list')).toMatch(/ACME-TOURS-T10\s+10 tours\s+tokens\s+10\s+12\s+hd/);
    await ok('clients', 'create', '--user', 'julie@example.ca', '--profile', '{"company_name": "Plateau Immo", "bio": {"fr": "Courtière"}}');
    const shown = JSON.parse(await ok('clients', 'show', '--user', 'julie@example.ca'));
    expect(shown).toMatchObject({ company_name: 'Plateau Immo', bio: { fr: 'Courtière', en: '', es: '' }, country: 'CA', first_name: 'Julie' });

    // The printed credentials are the ones the API accepts.
    const catalog = createCatalog(db.sql, clock);
    const store = await catalog.store('maison');
    expect((await catalog.authenticate(store.id, apiKey, apiToken))?.partner_code).toBe('ACME');
    expect(await catalog.authenticate(store.id, apiKey, apiToken.slice(0, -1) + (apiToken.endsWith('A') ? 'B' : 'A'))).toBeNull();
  });

  it('purchases, renews once at the end of the period, delivers signed webhooks in order and lists them', async () => {

    expect(await ok('purchases', 'create', '--store', 'maison', '--user', 'julie@example.ca', '--plan', 'ACME-STATS-M', '--at', '2026-01-31T09:00:00Z')).toMatch(/authorization \d+ created/);
    await ok('purchases', 'create', '--store', 'maison', '--user', 'julie@example.ca', '--plan', 'ACME-TOURS-T10', '--options', 'hd');
    // Bought on 31 January: the first period ends on 28 February, the second on 31 March.
    expect(await ok('renew', '--now', '2026-03-01')).toMatch(/authorization \d+ disabled, authorization \d+ created\n1 renewal\(s\)/);
    expect(await ok('renew', '--now', '2026-03-01')).toMatch(/^0 renewal/);
    expect(await ok('authorizations', 'list', '--store', 'maison', '--user', 'julie@example.ca')).toMatch(/ACME-STATS-M\s+plan_month\s+active\s+2026-02-28 09:00:00Z\s+2026-03-31 09:00:00Z/);

    expect(await ok('webhooks', 'deliver')).toMatch(/4 attempt\(s\): 4 delivered/);
    expect(receiver.rejected).toEqual([]);
    expect(receiver.of('ACME').map((r) => r.envelope.webhook)).toEqual(['authorization.create', 'authorization.create', 'authorization.disable', 'authorization.create']);
    expect(await ok('webhooks', 'log', '--store', 'maison')).toMatch(/msg_\d+\s+ACME\s+authorization\.disable\s+\d+\s+delivered\s+1\s+HTTP 204/);
  });

  it('rotates a webhook secret: printed once, the previous one signing until the overlap ends', async () => {
    const [access] = await db.sql.query<{ id: number; webhook_secret: string }>(`SELECT id::int AS id, webhook_secret FROM mkt_accesses ORDER BY id LIMIT 1`);
    const out = await ok('partners', 'rotate-secret', String(access!.id), '--overlap-hours', '48');
    const secret = /new webhook secret: (whsec_\S+)/.exec(out)![1]!;
    expect(out).toContain('until 2026-02-02T09:00:00.000Z');
    const [after] = await db.sql.query<{ webhook_secret: string; webhook_previous_secret: string }>(`SELECT webhook_secret, webhook_previous_secret FROM mkt_accesses WHERE id = $1`, [access!.id]);
    expect(after).toEqual({ webhook_secret: secret, webhook_previous_secret: access!.webhook_secret });
  });

  it('refuses bad commands with exit code 2 and the usage, unknown or duplicate records with 1', async () => {
    const cases: [string[], number, RegExp][] = [
      [['nothing'], 2, /unknown command: nothing/],
      [['plans', 'create', '--product', 'ACME-STATS', '--name', 'x', '--mode', 'tokens'], 2, /needs --sku/],
      [['plans', 'create', '--product', 'ACME-STATS', '--sku', 'ACME-STATS-T', '--name', 'x', '--mode', 'tokens'], 2, /tokens plan needs its number of tokens/],
      [['products', 'create', '--partner', 'ACME', '--sku', 'BETA-X', '--name', 'x'], 2, /must start with the partner code ACME-/],
      [['partners', 'grant', '--partner', 'ACME', '--store', 'maison', '--access', 'owner'], 2, /invalid access level/],
      [['renew', '--now', 'tomorrow'], 2, /--now must be YYYY-MM-DD/],
      [['clients', 'create', '--user', 'julie@example.ca', '--profile', '{"color1": "red"}'], 2, /color1: a hexadecimal color/],
      [['products', 'create', '--partner', 'NOPE', '--sku', 'NOPE-X', '--name', 'x'], 1, /partner NOPE not found/],
      [['stores', 'create', '--slug', 'maison', '--name', 'again'], 1, /store maison already exists/],
      [['purchases', 'create', '--store', 'maison', '--user', 'julie@example.ca', '--plan', 'ACME-TOURS-T10', '--options', '4k'], 2, /has no option 4k/],
      [['partners', 'rotate-secret', '1', '--overlap-hours', '1000'], 2, /--overlap-hours is a whole number of hours from 0 to 720/],
      [['partners', 'rotate-secret', '999'], 1, /access 999 not found or revoked/],
    ];
    for (const [args, code, message] of cases) {
      const r = await market(...args);
      expect(r.code, args.join(' ')).toBe(code);
      expect(r.err, args.join(' ')).toMatch(message);
    }
  });
});
