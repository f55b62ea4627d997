import type { FastifyRequest } from 'fastify';

type Plain = Record<string, unknown>;

const isPlain = (v: unknown): v is Plain =>
  !!v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype;

/** `out[k] = v`, except that a member named `__proto__` (form bodies may have one) stays a member. */
function put(out: Plain, k: string, v: unknown): void {
  if (k === '__proto__')
    Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  else out[k] = v;
}

/**
 * The client sends `null` optional values as empty query values (`name=`) and as JSON
 * `null`; both mean "absent" (client-contract.md). Strip them before validation so every
 * schema sees only real values: a copy without null object members (array items stay).
 * Iterative, not recursive: a deep body must not overflow the stack (the JSON parser bounds
 * the depth too, but form bodies and future parsers do not go through it). Each container is
 * copied shallowly, then its container children are replaced by their copies in turn.
 */
export function stripNulls(value: unknown): unknown {
  const pending: (unknown[] | Plain)[] = [];
  const copy = (v: unknown): unknown => {
    if (Array.isArray(v)) {
      const out = v.slice();
      pending.push(out);
      return out;
    }
    if (!isPlain(v)) return v;
    const out: Plain = {};
    for (const k of Object.keys(v)) if (v[k] !== null) put(out, k, v[k]);
    pending.push(out);
    return out;
  };
  const root = copy(value);
  while (pending.length) {
    const c = pending.pop()!;
    if (Array.isArray(c)) {
      for (let i = 0; i < c.length; i++) if (c[i] && typeof c[i] === 'object') c[i] = copy(c[i]);
    } else {
      for (const k of Object.keys(c)) if (c[k] && typeof c[k] === 'object') put(c, k, copy(c[k]));
    }
  }
  return root;
}

export async function normaliseInput(req: FastifyRequest): Promise<void> {
  if (req.query && typeof req.query === 'object') {
    const q = req.query as Record<string, unknown>;
    for (const [k, v] of Object.entries(q)) if (v === '' || v === null) delete q[k];
  }
  if (req.body && typeof req.body === 'object') req.body = stripNulls(req.body);
}
