/**
 * The HTML of the client space, server-rendered, usable without JavaScript. Every value is
 * escaped; the only style is a fixed sheet allowed by its hash, the only script the copy button
 * served from this origin (/space/copy.js), both named in {@link SPACE_HEADERS}.
 */
import { createHash } from 'node:crypto';
import type { KeyAction } from '../core/keys/history.ts';
import type { KeyRecord } from '../core/keys/keys.ts';
import { escapeHtml as e, type Lang } from '../signin/pages.ts';
import { usageChart, type DayUnits } from './chart.ts';
import type { StoreServices } from './services.ts';
import { TEXT, type Text } from './text.ts';

const CSS = `*{box-sizing:border-box}body{font-family:system-ui,sans-serif;line-height:1.5;color:#1d2430;background:#fff;margin:0}
header,main{max-width:60rem;margin:0 auto;padding:0 1rem}header{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center;justify-content:space-between;border-bottom:1px solid #cbd5e0;padding-top:.5rem;padding-bottom:.5rem}
h1{font-size:1.5rem;margin:.3rem 0}h2{font-size:1.25rem;margin-top:2rem}h3{font-size:1.1rem;margin:0 0 .5rem}
a{color:#1a4f8b}a:focus,button:focus,input:focus{outline:3px solid #b35c00;outline-offset:2px}
nav ul{list-style:none;display:flex;gap:1rem;margin:0;padding:0}[aria-current=true]{font-weight:bold;text-decoration:none;color:#1d2430}
.card{border:1px solid #cbd5e0;border-radius:6px;padding:1rem;margin:1rem 0}dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:0 0 1rem}dt{font-weight:600}dd{margin:0;overflow-wrap:anywhere}
.chart{width:100%;height:auto;max-height:12rem}table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid #e2e8f0;vertical-align:top}
.scroll{overflow-x:auto}form.inline{display:inline-block;margin:.5rem .5rem 0 0}button,.button{font:inherit;padding:.45rem 1rem;border-radius:4px;border:1px solid #1a4f8b;background:#1a4f8b;color:#fff;cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:#fff;color:#1a4f8b}.notice{padding:.7rem 1rem;border-radius:4px;margin:1rem 0}.ok{background:#e6f4ea;border:1px solid #2f7d32}.error{background:#fdecea;border:1px solid #a40000}
.newkey input{width:100%;font-family:monospace;font-size:1rem;padding:.4rem}code{font-family:monospace}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:#fff;padding:.3rem}`;

export const SPACE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  'Content-Type': 'text/html; charset=utf-8',
  'Content-Security-Policy': `default-src 'none'; style-src 'sha256-${createHash('sha256').update(CSS).digest('base64')}'; script-src 'self'; connect-src 'none'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'`,
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
});

/** The copy button: shown only when this script runs (hidden otherwise: selecting the field works without it). */
export const COPY_SCRIPT = `for (const b of document.querySelectorAll('button[data-copy]')) {
  b.hidden = false;
  b.addEventListener('click', async () => {
    const f = document.getElementById(b.dataset.copy);
    try { await navigator.clipboard.writeText(f.value); b.textContent = b.dataset.done; } catch { f.select(); }
  });
}
`;

export interface Notice { kind: 'ok' | 'error'; text: string }

export interface KeyView {
  record: KeyRecord;
  used: number;
  quota: number;
  lastUsed: string | null;
  series: DayUnits[];
}

export interface SpaceView {
  lang: Lang;
  csrf: string;
  user: { name: string; email: string; agency: string };
  keys: KeyView[];
  revoked: KeyRecord[];
  actions: KeyAction[];
  services: StoreServices[];
  notices: Notice[];
  newKey?: string;
}

const fmtNumber = (lang: Lang, n: number) => new Intl.NumberFormat(lang === 'fr' ? 'fr-FR' : 'en-GB').format(n);
const fmtDate = (lang: Lang, d: Date) =>
  new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
const fmtTime = (lang: Lang, d: Date) =>
  `${new Intl.DateTimeFormat(lang === 'fr' ? 'fr-FR' : 'en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(d)} UTC`;
const short = (fp: string) => fp.slice(0, 12);

function layout(lang: Lang, path: string, title: string, header: string, body: string): string {
  const other = (l: Lang, label: string) =>
    `<li><a href="${e(`${path}?lang=${l}`)}" lang="${l}" hreflang="${l}"${l === lang ? ' aria-current="true"' : ''}>${label}</a></li>`;
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${CSS}</style><script src="/space/copy.js" defer></script></head>
<body><a class="skip" href="#main">${TEXT[lang].skip}</a>
<header><p><strong>${e(TEXT[lang].title)}</strong></p>${header}
<nav aria-label="${TEXT[lang].language}"><ul>${other('fr', 'Français')}${other('en', 'English')}</ul></nav></header>
<main id="main">${body}</main></body></html>`;
}

const notices = (list: Notice[]) =>
  list.map((n) => `<p class="notice ${n.kind}" role="${n.kind === 'error' ? 'alert' : 'status'}">${e(n.text)}</p>`).join('\n');

const hidden = (name: string, value: string) => `<input type="hidden" name="${name}" value="${e(value)}">`;

export function signedOutPage(lang: Lang, list: Notice[] = []): string {
  const t = TEXT[lang];
  return layout(lang, '/space', t.title, '', `<h1>${t.title}</h1>
${notices(list)}
<p>${t.signedOutLead}</p>
<p><a class="button" href="/space/login?lang=${lang}">${t.signIn}</a></p>`);
}

export function errorPage(lang: Lang, message: string): string {
  const t = TEXT[lang];
  return layout(lang, '/space', `${t.errorTitle} – ${t.title}`, '', `<h1>${t.errorTitle}</h1>
<p class="notice error" role="alert">${e(message)}</p>
<p><a href="/space?lang=${lang}">${t.backToSpace}</a></p>`);
}

function keyCard(v: SpaceView, k: KeyView, i: number): string {
  const t = TEXT[v.lang];
  const r = k.record;
  const label = r.label ?? t.unnamed;
  const id = `k${i}`;
  const form = (action: 'replace' | 'revoke', text: string, cls = '') => `<form class="inline" method="post" action="/space/keys/${action}">
${hidden('csrf', v.csrf)}${hidden('lang', v.lang)}${hidden('fingerprint', r.fingerprint)}
<button type="submit"${cls ? ` class="${cls}"` : ''} aria-describedby="${id}-h">${text}</button></form>`;
  const rows = k.series.map((d) => `<tr><td>${d.day}</td><td>${fmtNumber(v.lang, d.units)}</td></tr>`).join('');
  return `<section class="card" aria-labelledby="${id}-h" data-fingerprint="${short(r.fingerprint)}">
<h3 id="${id}-h">${e(label)} <code>${e(r.prefixHint)}…</code></h3>
<dl>
<dt>${t.fingerprint}</dt><dd><code>${short(r.fingerprint)}</code></dd>
<dt>${t.mode}</dt><dd>${r.sandbox ? t.sandbox : t.live}</dd>
<dt>${t.countries}</dt><dd>${r.countries.map((c) => c.toUpperCase()).join(', ')}</dd>
<dt>${t.domains}</dt><dd>${r.domains ? e(r.domains.join(', ')) : t.allDomains}</dd>
<dt>${t.created}</dt><dd>${fmtTime(v.lang, r.createdAt)}</dd>
<dt>${t.lastUsed}</dt><dd>${k.lastUsed ? fmtDate(v.lang, new Date(`${k.lastUsed}T00:00:00Z`)) : t.never}</dd>
<dt>${t.usage}</dt><dd class="usage">${t.usageOf(fmtNumber(v.lang, k.used), fmtNumber(v.lang, k.quota))}</dd>
</dl>
${usageChart(k.series, { id: `${id}-c`, title: t.chartTitle(label), fmt: (n) => fmtNumber(v.lang, n) })}
<table class="sr-only"><caption>${e(t.tableCaption(label))}</caption><thead><tr><th scope="col">${t.day}</th><th scope="col">${t.units}</th></tr></thead><tbody>${rows}</tbody></table>
${form('replace', t.replace)}${form('revoke', t.revoke, 'secondary')}
</section>`;
}

function keysSection(v: SpaceView): string {
  const t = TEXT[v.lang];
  const fresh = v.newKey
    ? `<div class="notice ok newkey" role="status"><h3>${t.newKey}</h3><p>${t.newKeyWarning}</p>
<label for="new-key">${t.newKey}</label><input id="new-key" readonly value="${e(v.newKey)}" autocomplete="off" spellcheck="false">
<button type="button" data-copy="new-key" data-done="${t.copied}" hidden>${t.copy}</button></div>`
    : '';
  const revoked = v.revoked.length
    ? `<h3>${t.revokedKeys}</h3><ul>${v.revoked.map((r) => `<li><code>${short(r.fingerprint)}</code> ${e(r.label ?? t.unnamed)} – ${t.revokedOn} ${fmtTime(v.lang, r.revokedAt!)}</li>`).join('')}</ul>`
    : '';
  return `<section aria-labelledby="keys-h"><h2 id="keys-h">${t.keys}</h2>
${fresh}
${v.keys.length ? v.keys.map((k, i) => keyCard(v, k, i)).join('\n') : `<p>${e(t.noKeys)}</p>`}
${revoked}
</section>`;
}

function actionsSection(v: SpaceView): string {
  const t = TEXT[v.lang];
  if (v.actions.length === 0) return `<section aria-labelledby="act-h"><h2 id="act-h">${t.actions}</h2><p>${t.noActions}</p></section>`;
  const rows = v.actions.map((a) => `<tr><td>${fmtTime(v.lang, new Date(a.at))}</td><td>${e(a.actor)}</td><td>${e(t.actionNames[a.action] ?? a.action)}${a.replacement ? t.replacedBy(short(a.replacement)) : ''}</td><td><code>${short(a.fingerprint)}</code></td></tr>`);
  return `<section aria-labelledby="act-h"><h2 id="act-h">${t.actions}</h2><div class="scroll"><table id="actions">
<thead><tr><th scope="col">${t.when}</th><th scope="col">${t.who}</th><th scope="col">${t.what}</th><th scope="col">${t.key}</th></tr></thead>
<tbody>${rows.join('')}</tbody></table></div></section>`;
}

function servicesSection(v: SpaceView): string {
  const t: Text = TEXT[v.lang];
  if (v.services.length === 0) return `<section aria-labelledby="svc-h"><h2 id="svc-h">${t.services}</h2><p>${t.noServices}</p></section>`;
  const stores = v.services.map((s) => {
    const products = s.products.map((p) => {
      const rows = p.authorizations.map((a) => `<tr><td>${e(a.plan_name)} <code>${e(a.pricing_sku)}</code></td><td>${e(t.modes[a.mode] ?? a.mode)}</td><td>${t.from(fmtDate(v.lang, new Date(a.validity_start)), fmtDate(v.lang, new Date(a.validity_end)))}</td><td>${a.tokens === null ? '–' : fmtNumber(v.lang, a.tokens)}</td></tr>`);
      const open = p.initiateLoginUri
        ? `<p><a class="button" href="/space/open?store=${encodeURIComponent(s.slug)}&amp;product=${encodeURIComponent(p.sku)}&amp;lang=${v.lang}">${e(t.open(p.name))}</a></p>`
        : `<p>${t.noOpen}</p>`;
      return `<div class="card" data-product="${e(p.sku)}"><h4>${e(p.name)} <code>${e(p.sku)}</code></h4>
<dl>${p.tokens === null ? '' : `<dt>${t.tokensLeft}</dt><dd class="balance">${fmtNumber(v.lang, p.tokens)}</dd>`}
<dt>${t.lastDebit}</dt><dd>${p.lastDebitAt ? fmtTime(v.lang, p.lastDebitAt) : t.never}</dd></dl>
<div class="scroll"><table><thead><tr><th scope="col">${t.plan}</th><th scope="col">${t.mode}</th><th scope="col">${t.validity}</th><th scope="col">${t.tokensLeft}</th></tr></thead><tbody>${rows.join('')}</tbody></table></div>
${open}</div>`;
    });
    return `<section aria-labelledby="store-${e(s.slug)}"><h3 id="store-${e(s.slug)}">${e(s.name)}</h3>${products.join('\n')}</section>`;
  });
  return `<section aria-labelledby="svc-h"><h2 id="svc-h">${t.services}</h2>${stores.join('\n')}</section>`;
}

export function spacePage(v: SpaceView): string {
  const t = TEXT[v.lang];
  const header = `<p>${e(t.signedInAs(`${v.user.name} <${v.user.email}>`, v.user.agency))}</p>
<form method="post" action="/space/logout">${hidden('csrf', v.csrf)}${hidden('lang', v.lang)}<button type="submit" class="secondary">${t.signOut}</button></form>`;
  return layout(v.lang, '/space', t.title, header, `<h1>${t.title}</h1>
${notices(v.notices)}
${keysSection(v)}
${actionsSection(v)}
${servicesSection(v)}`);
}
