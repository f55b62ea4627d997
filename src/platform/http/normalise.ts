import type { FastifyRequest } from 'fastify';

/**
 * The client sends `null` optional values as empty query values (`name=`) and as JSON
 * `null`; both mean "absent" (client-contract.md). Strip them before validation so every
 * schema sees only real values.
 */
function stripNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripNulls);
  if (value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) if (v !== null) out[k] = stripNulls(v);
    return out;
  }
  return value;
}

export async function normaliseInput(req: FastifyRequest): Promise<void> {
  if (req.query && typeof req.query === 'object') {
    const q = req.query as Record<string, unknown>;
    for (const [k, v] of Object.entries(q)) if (v === '' || v === null) delete q[k];
  }
  if (req.body && typeof req.body === 'object') req.body = stripNulls(req.body);
}
