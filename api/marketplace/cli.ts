/**
 * Operator commands of the marketplace, so the whole purchase cycle can be played without a
 * web shop: stores, partners and their per-store accesses (credentials printed once), products,
 * price plans, client profiles, purchases, renewals and webhook deliveries.
 *
 *   npm run marketplace -- help
 */
import { systemClock, type Clock } from '../core/clock.ts';
import { fmtDate, runIfEntryPoint, runStateCommand, splitList, table, UsageError, type CliIO, parseCommandLine } from '../core/cli.ts';
import type { Sql } from '../core/state/sql.ts';
import { activeAuthorizations } from './authorizations.ts';
import { createCatalog, type AccessLevel } from './catalog.ts';
import { OperatorError } from './errors.ts';
import { profileOf } from './format.ts';
import { cancelPurchase, purchase, renewDue } from './purchases.ts';
import { deliveryLog } from './webhooks/log.ts';
import { createDeliveryWorker, retryDelivery } from './webhooks/worker.ts';

export const USAGE = `Usage:
  marketplace stores create --slug SLUG --name NAME
  marketplace stores list
  marketplace partners create --code CODE --name NAME
  marketplace partners list
  marketplace partners grant --partner CODE --store SLUG --access marketplace|supplier [--webhook-url URL]
                             [--oauth-client CLIENT_UID]
  marketplace partners accesses [--store SLUG]
  marketplace partners set-webhook <ACCESS_ID> (--webhook-url URL | --no-webhook)
  marketplace partners revoke <ACCESS_ID>
  marketplace partners rotate-secret <ACCESS_ID> [--overlap-hours N]
  marketplace products create --partner CODE --sku PARTNER-PRODUCT --name NAME
  marketplace products list
  marketplace plans create --product SKU --sku PARTNER-PRODUCT-PRICING --name NAME --mode plan_month|plan_year|tokens
                           [--tokens N] [--validity-months N] [--option code=Name]...
  marketplace plans list
  marketplace clients create --user ID|EMAIL|UID [--reference N] [--profile JSON | --profile-stdin]
  marketplace clients update --user ID|EMAIL|UID (--profile JSON | --profile-stdin)
  marketplace clients show --user ID|EMAIL|UID
  marketplace clients list
  marketplace purchases create --store SLUG --user ID|EMAIL|UID --plan PRICING_SKU [--options a,b] [--at DATE]
  marketplace purchases cancel <PURCHASE_ID>
  marketplace authorizations list --store SLUG --user ID|EMAIL|UID
  marketplace renew [--now DATE]
  marketplace webhooks deliver
  marketplace webhooks log [--store SLUG] [--access ACCESS_ID] [--status pending|delivered|failed] [--limit N]
  marketplace webhooks retry <DELIVERY_ID>

grant prints the apiKey, apiToken and webhook secret once: only hashes of the key and token are kept.
A client profile (spec 2.3 fields that are not in the user account) is a JSON object, e.g.
  '{"company_name": "Plateau Immo", "website": "https://example.ca", "bio": {"fr": "..."}}'.
DATE: YYYY-MM-DD (midnight UTC) or an ISO 8601 timestamp.
Environment: DATABASE_URL (PostgreSQL server) or DATA_DIR (embedded state at <DATA_DIR>/state, default ./data);
MARKETPLACE_WEBHOOK_ALLOW_PRIVATE=true lets webhooks deliver reach loopback and private addresses.`;

const OPTIONS = {
  slug: { type: 'string' },
  name: { type: 'string' },
  code: { type: 'string' },
  partner: { type: 'string' },
  store: { type: 'string' },
  access: { type: 'string' },
  'webhook-url': { type: 'string' },
  'no-webhook': { type: 'boolean' },
  'oauth-client': { type: 'string' },
  'overlap-hours': { type: 'string' },
  sku: { type: 'string' },
  product: { type: 'string' },
  mode: { type: 'string' },
  tokens: { type: 'string' },
  'validity-months': { type: 'string' },
  option: { type: 'string', multiple: true },
  user: { type: 'string' },
  reference: { type: 'string' },
  profile: { type: 'string' },
  'profile-stdin': { type: 'boolean' },
  plan: { type: 'string' },
  options: { type: 'string' },
  at: { type: 'string' },
  now: { type: 'string' },
  status: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K] extends { multiple: true } ? string[] : (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean;
};
type Opt = keyof typeof OPTIONS;

/** Options each command accepts, the required ones, and its positional argument if any. */
const COMMANDS: Record<string, { allowed: Opt[]; required?: Opt[]; arg?: string }> = {
  'stores create': { allowed: ['slug', 'name'], required: ['slug', 'name'] },
  'stores list': { allowed: [] },
  'partners create': { allowed: ['code', 'name'], required: ['code', 'name'] },
  'partners list': { allowed: [] },
  'partners grant': { allowed: ['partner', 'store', 'access', 'webhook-url', 'oauth-client'], required: ['partner', 'store', 'access'] },
  'partners accesses': { allowed: ['store'] },
  'partners set-webhook': { allowed: ['webhook-url', 'no-webhook'], arg: 'ACCESS_ID' },
  'partners revoke': { allowed: [], arg: 'ACCESS_ID' },
  'partners rotate-secret': { allowed: ['overlap-hours'], arg: 'ACCESS_ID' },
  'products create': { allowed: ['partner', 'sku', 'name'], required: ['partner', 'sku', 'name'] },
  'products list': { allowed: [] },
  'plans create': { allowed: ['product', 'sku', 'name', 'mode', 'tokens', 'validity-months', 'option'], required: ['product', 'sku', 'name', 'mode'] },
  'plans list': { allowed: [] },
  'clients create': { allowed: ['user', 'reference', 'profile', 'profile-stdin'], required: ['user'] },
  'clients update': { allowed: ['user', 'profile', 'profile-stdin'], required: ['user'] },
  'clients show': { allowed: ['user'], required: ['user'] },
  'clients list': { allowed: [] },
  'purchases create': { allowed: ['store', 'user', 'plan', 'options', 'at'], required: ['store', 'user', 'plan'] },
  'purchases cancel': { allowed: [], arg: 'PURCHASE_ID' },
  'authorizations list': { allowed: ['store', 'user'], required: ['store', 'user'] },
  renew: { allowed: ['now'] },
  'webhooks deliver': { allowed: [] },
  'webhooks log': { allowed: ['store', 'access', 'status', 'limit'] },
  'webhooks retry': { allowed: [], arg: 'DELIVERY_ID' },
};

function parse(argv: string[]): { command: string; arg: string | undefined; values: Values } {
  const parsed = parseCommandLine(argv, OPTIONS);
  const values = parsed.values as Values;
  const words = parsed.positionals;
  if (words.length === 0 || words[0] === 'help' || (values.help && words.length <= 1)) return { command: 'help', arg: undefined, values };
  const command = words[0] === 'renew' ? 'renew' : `${words[0]} ${words[1] ?? ''}`.trim();
  const spec = COMMANDS[command];
  if (!spec) throw new UsageError(`unknown command: ${command}`);
  const rest = words.slice(command.split(' ').length);
  for (const k of Object.keys(values) as Opt[]) if (k !== 'help' && !spec.allowed.includes(k)) throw new UsageError(`--${k} does not apply to ${command}`);
  for (const k of spec.required ?? []) if (values[k] === undefined) throw new UsageError(`${command} needs --${k}`);
  if (spec.arg ? rest.length !== 1 : rest.length !== 0) throw new UsageError(spec.arg ? `${command} takes one ${spec.arg}` : `unexpected argument: ${rest[0]}`);
  if (values.profile !== undefined && values['profile-stdin']) throw new UsageError('--profile and --profile-stdin exclude each other');
  if (command === 'clients update' && values.profile === undefined && !values['profile-stdin']) throw new UsageError('clients update needs --profile or --profile-stdin');
  if (command === 'partners set-webhook' && (values['webhook-url'] === undefined) === (values['no-webhook'] === undefined)) throw new UsageError('partners set-webhook needs either --webhook-url or --no-webhook');
  return { command, arg: rest[0], values };
}

function integer(v: string, what: string): number {
  if (!/^\d{1,15}$/.test(v)) throw new UsageError(`${what} must be a whole number, not ${JSON.stringify(v)}`);
  return Number(v);
}

function date(v: string, option: string): Date {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(v) ? new Date(`${v}T00:00:00Z`) : /^\d{4}-\d{2}-\d{2}T/.test(v) ? new Date(v) : new Date(NaN);
  // Years 0001 to 9999: what timestamptz holds and both calendars agree on (schemas/inputs.ts).
  if (Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) throw new UsageError(`--${option} must be YYYY-MM-DD or an ISO 8601 timestamp of years 0001 to 9999, not ${JSON.stringify(v)}`);
  return d;
}

async function profileJson(v: Values, io: CliIO): Promise<object> {
  let text: string | undefined = v.profile;
  if (v['profile-stdin']) {
    if (!io.readStdin) throw new UsageError('--profile-stdin needs a standard input');
    text = await io.readStdin();
  }
  if (text === undefined) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('not an object');
    return value;
  } catch {
    throw new UsageError('the client profile must be a JSON object');
  }
}

function planOption(s: string): { code: string; name: string } {
  const i = s.indexOf('=');
  if (i <= 0) throw new UsageError(`--option must be code=Name, not ${JSON.stringify(s)}`);
  return { code: s.slice(0, i), name: s.slice(i + 1) };
}

async function run(sql: Sql, clock: Clock, command: string, arg: string | undefined, v: Values, io: CliIO): Promise<number> {
  const catalog = createCatalog(sql, clock);
  const print = (header: string[], rows: string[][]) => { for (const l of table(header, rows)) io.out(l); };
  switch (command) {
    case 'stores create': {
      const s = await catalog.createStore({ slug: v.slug!, name: v.name! });
      io.out(`created store ${s.id} ${s.slug} (${s.name}); its API: /stores/${s.slug}/fr/api/v1/`);
      return 0;
    }
    case 'stores list':
      print(['ID', 'SLUG', 'NAME', 'CREATED'], (await catalog.listStores()).map((s) => [String(s.id), s.slug, s.name, fmtDate(s.created_at)]));
      return 0;
    case 'partners create': {
      const p = await catalog.createPartner({ code: v.code!, name: v.name! });
      io.out(`created partner ${p.id} ${p.code} (${p.name})`);
      return 0;
    }
    case 'partners list':
      print(['ID', 'CODE', 'NAME', 'CREATED'], (await catalog.listPartners()).map((p) => [String(p.id), p.code, p.name, fmtDate(p.created_at)]));
      return 0;
    case 'partners grant': {
      const c = await catalog.grantAccess({ partner: v.partner!, store: v.store!, level: v.access! as AccessLevel, webhookUrl: v['webhook-url'] ?? null, oauthClientUid: v['oauth-client'] ?? null });
      io.out(`access ${c.access.id}: partner ${c.access.partner_code}, ${c.access.level} access to store ${c.access.store_slug}`);
      io.out(`apiKey: ${c.apiKey}`);
      io.out(`apiToken: ${c.apiToken}`);
      io.out(`webhook secret: ${c.webhookSecret}`);
      io.out('(shown once: give them to the partner now; only hashes of apiKey and apiToken are kept)');
      if (!c.access.webhook_url) io.out('no webhook URL yet: set one with partners set-webhook');
      return 0;
    }
    case 'partners accesses': {
      const storeId = v.store === undefined ? undefined : (await catalog.store(v.store)).id;
      print(
        ['ID', 'PARTNER', 'STORE', 'ACCESS', 'KEY', 'WEBHOOK URL', 'STATUS'],
        (await catalog.listAccesses(storeId)).map((a) => [String(a.id), a.partner_code, a.store_slug, a.level, `${a.key_hint}...`, a.webhook_url ?? '-', a.revoked_at ? `revoked ${fmtDate(a.revoked_at)}` : 'active']),
      );
      return 0;
    }
    case 'partners set-webhook':
      await catalog.setWebhookUrl(integer(arg!, 'ACCESS_ID'), v['no-webhook'] ? null : v['webhook-url']!);
      io.out(`access ${arg}: webhook URL ${v['no-webhook'] ? 'removed' : `set to ${v['webhook-url']}`}`);
      return 0;
    case 'partners revoke':
      await catalog.revokeAccess(integer(arg!, 'ACCESS_ID'));
      io.out(`access ${arg} revoked: its credentials no longer work and it receives no more webhooks`);
      return 0;
    case 'partners rotate-secret': {
      const hours = v['overlap-hours'] === undefined ? 24 : Number(v['overlap-hours']);
      if (!/^\d{1,3}$/.test(v['overlap-hours'] ?? '24') || hours > 720) throw new UsageError('--overlap-hours is a whole number of hours from 0 to 720');
      const r = await catalog.rotateWebhookSecret(integer(arg!, 'ACCESS_ID'), hours * 3_600_000);
      io.out(`access ${arg}: new webhook secret: ${r.webhookSecret}`);
      io.out(`(shown once) the previous secret also signs until ${r.previousUntil.toISOString()}: webhook-signature carries both v1 signatures meanwhile`);
      return 0;
    }
    case 'products create': {
      const p = await catalog.createProduct({ partner: v.partner!, sku: v.sku!, name: v.name! });
      io.out(`created product ${p.id} ${p.sku} (${p.name})`);
      return 0;
    }
    case 'products list':
      print(['ID', 'SKU', 'NAME'], (await catalog.listProducts()).map((p) => [String(p.id), p.sku, p.name]));
      return 0;
    case 'plans create': {
      const p = await catalog.createPlan(v.product!, {
        sku: v.sku!, name: v.name!, mode: v.mode as 'tokens',
        tokens: v.tokens === undefined ? undefined : integer(v.tokens, '--tokens'),
        validity_months: v['validity-months'] === undefined ? undefined : integer(v['validity-months'], '--validity-months'),
        options: (v.option ?? []).map(planOption),
      });
      io.out(`created plan ${p.id} ${p.sku} (${p.name}, ${p.mode}${p.tokens === null ? '' : `, ${p.tokens} tokens`}, ${p.validity_months} month(s)) of product ${p.product_sku}`);
      return 0;
    }
    case 'plans list':
      print(
        ['ID', 'SKU', 'NAME', 'MODE', 'TOKENS', 'MONTHS', 'OPTIONS'],
        (await catalog.listPlans()).map((p) => [String(p.id), p.sku, p.name, p.mode, p.tokens === null ? '-' : String(p.tokens), String(p.validity_months), p.options.map((o) => o.code).join(',') || '-']),
      );
      return 0;
    case 'clients create': {
      const c = await catalog.createClient(v.user!, await profileJson(v, io), v.reference === undefined ? undefined : integer(v.reference, '--reference'));
      io.out(`created client profile ${c.id} (reference ${c.reference}) for user ${c.user_id}`);
      return 0;
    }
    case 'clients update': {
      const c = await catalog.updateClient(v.user!, await profileJson(v, io));
      io.out(`updated client profile ${c.id} of user ${c.user_id}`);
      return 0;
    }
    case 'clients show': {
      const user = await catalog.user(v.user!);
      const client = await catalog.clientOf(user.id);
      if (!client) throw new OperatorError(`user ${v.user} is not a marketplace client`, 'not_found');
      io.out(JSON.stringify(profileOf(user, client), null, 2));
      return 0;
    }
    case 'clients list':
      print(['PROFILE', 'USER', 'REFERENCE', 'EMAIL', 'NAME'], (await catalog.listClients()).map((c) => [String(c.id), String(c.user_id), String(c.reference), c.email, `${c.first_name} ${c.last_name}`]));
      return 0;
    case 'purchases create': {
      const r = await purchase(sql, catalog, { store: v.store!, user: v.user!, plan: v.plan!, options: v.options === undefined ? [] : splitList(v.options), at: v.at === undefined ? undefined : date(v.at, 'at') }, clock);
      io.out(`purchase ${r.purchaseId}: authorization ${r.authorizationId} created (active); authorization.create queued for delivery`);
      return 0;
    }
    case 'purchases cancel':
      await cancelPurchase(sql, integer(arg!, 'PURCHASE_ID'), clock);
      io.out(`purchase ${arg} cancelled: its current period runs to its end, then it is not renewed`);
      return 0;
    case 'authorizations list': {
      const store = await catalog.store(v.store!);
      const user = await catalog.user(v.user!);
      print(
        ['ID', 'PRICING SKU', 'MODE', 'STATUS', 'FROM', 'TO', 'TOKENS'],
        (await activeAuthorizations(sql, { storeId: store.id, userId: user.id, partnerId: null, productSku: null })).map((a) => [
          String(a.id), a.pricing_sku, a.mode, a.status, fmtDate(a.validity_start), fmtDate(a.validity_end), a.tokens === null ? '-' : String(a.tokens),
        ]),
      );
      return 0;
    }
    case 'renew': {
      const asOf = v.now === undefined ? clock.now() : date(v.now, 'now');
      const done = await renewDue(sql, clock.now(), asOf);
      for (const r of done) io.out(`purchase ${r.purchaseId}: authorization ${r.disabled} disabled${r.created === null ? ' (cancelled: not renewed)' : `, authorization ${r.created} created`}`);
      io.out(`${done.length} renewal(s) at ${asOf.toISOString()}`);
      return 0;
    }
    case 'webhooks deliver': {
      const r = await createDeliveryWorker({ sql, clock, allowPrivateNetworks: io.env.MARKETPLACE_WEBHOOK_ALLOW_PRIVATE === 'true' }).runOnce();
      io.out(`${r.attempted} attempt(s): ${r.delivered} delivered, ${r.retried} to retry, ${r.failed} given up`);
      return 0;
    }
    case 'webhooks log': {
      if (v.status !== undefined && !['pending', 'delivered', 'failed'].includes(v.status)) throw new UsageError('--status must be pending, delivered or failed');
      const accessId = v.access === undefined ? null : integer(v.access, '--access');
      const storeId = v.store === undefined ? null : (await catalog.store(v.store)).id;
      const log = await deliveryLog(sql, { accessId, storeId, status: (v.status as 'pending') ?? null, before: null, limit: v.limit === undefined ? 50 : integer(v.limit, '--limit') });
      const accesses = new Map((await catalog.listAccesses()).map((a) => [a.id, a]));
      const rows = log.deliveries.map((d) => {
        const last = d.attempts.at(-1);
        return [String(d.id), d.webhook_id, accesses.get(d.access_id)?.partner_code ?? '?', d.event, String(d.authorization_id), d.status, String(d.attempts.length),
          last ? (last.error ?? `HTTP ${last.status_code}`) : '-', d.next_attempt_at ?? d.delivered_at ?? '-'];
      });
      print(['ID', 'WEBHOOK ID', 'PARTNER', 'EVENT', 'AUTH', 'STATUS', 'TRIES', 'LAST RESULT', 'NEXT / DELIVERED'], rows);
      return 0;
    }
    case 'webhooks retry': {
      if (!(await retryDelivery(sql, integer(arg!, 'DELIVERY_ID'), clock.now()))) throw new OperatorError(`delivery ${arg} not found or not failed`, 'not_found');
      io.out(`delivery ${arg} queued again`);
      return 0;
    }
  }
  throw new UsageError(`unknown command: ${command}`);
}

/**
 * Runs the CLI; returns the exit code (0 ok, 1 not found or conflict, 2 usage or invalid input).
 * Tests may pass an open, migrated `sql` instead of the environment's state.
 */
export function main(argv: string[], io: CliIO, opts: { clock?: Clock; sql?: Sql } = {}): Promise<number> {
  const clock = opts.clock ?? systemClock;
  return runStateCommand(argv, io, {
    prog: 'marketplace',
    usage: USAGE,
    parse,
    run: (sql, { command, arg, values }) => run(sql, clock, command, arg, values, io),
    sql: opts.sql,
  });
}

runIfEntryPoint(import.meta.url, 'marketplace', (argv, io) => main(argv, io));
