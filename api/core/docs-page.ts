/**
 * A self-contained documentation page rendered from the OpenAPI document: readable without
 * JavaScript and without assets fetched from elsewhere.
 */
export function docsPage(doc: { info: { title: string; version: string; description?: string }; paths: Record<string, Record<string, any>> }): string {
  const esc = (s: unknown) => String(s ?? '').replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([m, op]) => ({ path, method: m.toUpperCase(), op })));
  const body = ops.map(({ path, method, op }) => `
<section id="${esc(method + path)}">
  <h2><code>${esc(method)} ${esc(path)}</code></h2>
  <p>${esc(op.summary)}</p>${op.description ? `<p>${esc(op.description)}</p>` : ''}
  ${op.parameters?.length ? `<table><tr><th>parameter</th><th>in</th><th>required</th><th>description</th></tr>${op.parameters.map((p: any) => `<tr><td><code>${esc(p.name)}</code></td><td>${esc(p.in)}</td><td>${p.required ? 'yes' : 'no'}</td><td>${esc(p.description)}</td></tr>`).join('')}</table>` : ''}
  <p>Responses: ${Object.entries(op.responses).map(([s, r]: [string, any]) => `<b>${esc(s)}</b> ${esc(r.description)}`).join('; ')}</p>
</section>`).join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(doc.info.title)} ${esc(doc.info.version)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;line-height:1.4}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:left}code{background:#f4f4f4}</style></head>
<body><h1>${esc(doc.info.title)} <small>${esc(doc.info.version)}</small></h1><p>${esc(doc.info.description)}</p>
<p>Machine-readable contract: <a href="/openapi.json">/openapi.json</a> (OpenAPI 3.1). Authentication: <code>Authorization: Bearer svc_live_...</code>.</p>
${body}
</body></html>`;
}
