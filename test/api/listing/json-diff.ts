/** A structural diff of two JSON values, field by field, with array indices written `[]`. */
export interface Difference {
  path: string;
  change: 'added' | 'removed' | 'type' | 'value';
  from?: unknown;
  to?: unknown;
}

const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

export function jsonDiff(from: unknown, to: unknown, path = ''): Difference[] {
  const kf = kind(from);
  const kt = kind(to);
  if (kf !== kt) return [{ path, change: 'type', from, to }];
  if (kf === 'array') {
    const a = from as unknown[];
    const b = to as unknown[];
    if (a.length !== b.length) return [{ path, change: 'value', from: a.length, to: b.length }];
    return a.flatMap((x, i) => jsonDiff(x, b[i], `${path}[]`));
  }
  if (kf === 'object') {
    const a = from as Record<string, unknown>;
    const b = to as Record<string, unknown>;
    const out: Difference[] = [];
    for (const k of Object.keys(a)) {
      const p = path ? `${path}.${k}` : k;
      if (!(k in b)) out.push({ path: p, change: 'removed', from: a[k] });
      else out.push(...jsonDiff(a[k], b[k], p));
    }
    for (const k of Object.keys(b)) if (!(k in a)) out.push({ path: path ? `${path}.${k}` : k, change: 'added', to: b[k] });
    return out;
  }
  return from === to ? [] : [{ path, change: 'value', from, to }];
}

/** The distinct `path change` lines of a diff, sorted: what a test compares to the spec. */
export const summary = (d: Difference[]) => [...new Set(d.map((x) => `${x.path} ${x.change}`))].sort();
