/**
 * An OpenAPI document with every `#/components/schemas/...` reference replaced by the component
 * it names, so a test reads a response's shape by its properties (the server shares components).
 */
export function inlineRefs<T>(doc: T): T {
  const components = (doc as { components?: { schemas?: Record<string, unknown> } }).components?.schemas ?? {};
  const walk = (node: unknown, seen: string[]): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!node || typeof node !== 'object') return node;
    const ref = (node as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      const id = ref.slice('#/components/schemas/'.length);
      if (seen.includes(id)) throw new Error(`recursive component ${id}`);
      return walk(components[id], [...seen, id]);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v, seen)]));
  };
  return { ...doc, paths: walk((doc as { paths: unknown }).paths, []), webhooks: walk((doc as { webhooks?: unknown }).webhooks, []) } as T;
}
