import type { FastifyInstance } from 'fastify';

const patterns = new WeakMap<FastifyInstance, { method: string; re: RegExp }[]>();

function toRegExp(url: string): RegExp {
  const body = url
    .split('/')
    .map((seg) => (seg.startsWith(':') ? '[^/]+' : seg === '*' ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body}/?$`);
}

/** Remember every route's pattern so an unmatched request can be told 405 rather than 404. */
export function trackRoutes(app: FastifyInstance): void {
  const list: { method: string; re: RegExp }[] = [];
  patterns.set(app, list);
  app.addHook('onRoute', (route) => {
    for (const method of ([] as string[]).concat(route.method)) list.push({ method, re: toRegExp(route.url) });
  });
}

/** Methods that exist for this path when `method` does not, or undefined if the path is unknown. */
export function methodNotAllowed(app: FastifyInstance, method: string, url: string): string[] | undefined {
  const path = url.split('?')[0];
  const allowed = [...new Set((patterns.get(app) ?? []).filter((p) => p.re.test(path)).map((p) => p.method))];
  return allowed.length && !allowed.includes(method) ? allowed.sort() : undefined;
}
