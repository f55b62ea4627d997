/**
 * The closing test of issue #21: walk the official client (@papr/memory 2.8.0) object at run
 * time, call every resource method with valid input against a real listening server on each store,
 * and fail on any answer other than the documented one (a 2xx; the instance-config 501 with
 * `x-should-retry: false`, sent once). A method the walk finds with no call written for it, or
 * whose route the server does not have, is listed as pending by name, and the list must be empty.
 *
 * The calls are the table of test/every-method-calls.ts and test/every-method-calls-more.ts. One app
 * serves them all: the OAuth rig's (a full app over the store, with the loopback OpenID provider)
 * configured with the fake AI upstreams, plus a job worker started before the methods that need one.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr, { APIError } from '@papr/memory';
import { buildWorker } from '../src/app.ts';
import type { Worker } from '../src/platform/jobs/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { storeCalls, type CallContext, type MethodCall } from './every-method-calls.ts';
import { serviceCalls } from './every-method-calls-more.ts';
import { fakeAiUpstream } from './fake-ai-upstream.ts';
import { testConfig, testStores } from './harness.ts';
import { startOAuthRig, type OAuthRig } from './oauth-kit.ts';

const CALLS: MethodCall[] = [...storeCalls, ...serviceCalls];

/** A resource of the client: an object holding `_client` (the root itself is not one). */
const isResource = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && '_client' in v;

/** The functions a resource's class chain defines (its methods), without the constructor. */
function methodsOf(resource: object): string[] {
  const names = new Set<string>();
  for (let p = Object.getPrototypeOf(resource); p && p !== Object.prototype; p = Object.getPrototypeOf(p))
    for (const n of Object.getOwnPropertyNames(p))
      if (n !== 'constructor' && typeof (p as Record<string, unknown>)[n] === 'function') names.add(n);
  return [...names];
}

/**
 * Every resource method of `client`, by path (`messages.sessions.compress`), recursing into
 * sub-resources. The root's own request plumbing (get, post, request, buildURL …) lives on the
 * root, which is not a resource, so it is never listed. With `record`, each method is wrapped on
 * its resource instance to report its path when called (so a call can be checked to call its method).
 */
function walkClient(client: Papr, record?: (method: string) => void): string[] {
  const found: string[] = [];
  const walk = (holder: object, prefix: string) => {
    for (const [key, value] of Object.entries(holder)) {
      if (key === '_client' || !isResource(value)) continue;
      for (const m of methodsOf(value)) {
        const path = `${prefix}${key}.${m}`;
        found.push(path);
        if (!record) continue;
        const original = value[m] as (...args: unknown[]) => unknown;
        Object.defineProperty(value, m, {
          value: (...args: unknown[]) => (record(path), original.apply(value, args)),
        });
      }
      walk(value, `${prefix}${key}.`);
    }
  };
  walk(client, '');
  return found;
}

/** One request the server received (seen onRequest, so before the client can see an answer): its route, if any. */
interface Seen {
  route: string | undefined;
}

/** How one call came out: answered as documented, pending (no route), or a failure described. */
type Outcome = { kind: 'documented' } | { kind: 'pending' } | { kind: 'failed'; why: string };

function judge(call: MethodCall, calledIt: boolean, seen: Seen[], err: unknown): Outcome {
  const body = (e: APIError) => JSON.stringify(e.error ?? null).slice(0, 600);
  if (err instanceof APIError && err.status === 404 && seen.some((s) => !s.route)) return { kind: 'pending' };
  if (err && !(err instanceof APIError)) return { kind: 'failed', why: String((err as Error).stack ?? err) };
  if (!calledIt) return { kind: 'failed', why: `the call written for it never called ${call.method}` };
  if (!call.expect) {
    if (!err) return { kind: 'documented' };
    const e = err as APIError;
    return { kind: 'failed', why: `answered ${e.status}: ${body(e)}` };
  }
  if (!err) return { kind: 'failed', why: `answered 2xx where ${call.expect} is documented` };
  const e = err as APIError;
  if (e.status !== call.expect) return { kind: 'failed', why: `answered ${e.status}, not ${call.expect}: ${body(e)}` };
  if (e.headers?.get('x-should-retry') !== 'false') return { kind: 'failed', why: 'no x-should-retry: false' };
  if (seen.length !== 1) return { kind: 'failed', why: `${seen.length} requests: the client retried` };
  return { kind: 'documented' };
}

for (const store of testStores) {
  describe(`official client: every method [${store.name}]`, () => {
    const fake = fakeAiUpstream();
    const env = { WORKER_POLL_MS: '50', OCR: 'off' };
    const seen: Seen[] = [];
    let rig: OAuthRig;
    let baseURL: string;
    let worker: Worker | undefined;
    before(async () => {
      await fake.start();
      rig = await startOAuthRig(store, {
        env: { ...fake.env(), ...env },
        beforeReady: (app) =>
          app.addHook('onRequest', async (req) => {
            seen.push({ route: req.routeOptions.url });
          }),
      });
      baseURL = await rig.t.app.listen({ port: 0, host: '127.0.0.1' });
    });
    after(async () => {
      await worker?.stop();
      await rig.close();
      fake.stop();
    });

    it('the table has one call for each method the walk finds, and none for a method it does not', () => {
      const walked = walkClient(new Papr({ xAPIKey: 'k', baseURL: 'http://127.0.0.1:9' }));
      const written = CALLS.map((c) => c.method);
      assert.ok(walked.length > 0, 'the walk found no methods: the client changed shape');
      assert.deepEqual(
        written.filter((m, i) => written.indexOf(m) !== i),
        [],
        'methods with more than one call',
      );
      assert.deepEqual(
        written.filter((m) => !walked.includes(m)),
        [],
        'calls written for methods the client does not have',
      );
      // Walked methods without a call: listed as pending by the next test too, which fails on them.
      assert.deepEqual(
        walked.filter((m) => !written.includes(m)),
        [],
        'client methods with no call written for them',
      );
    });

    it('every method answers as documented; none is pending', async () => {
      let called = new Set<string>();
      const client = (opts: { xAPIKey: string; bearerToken?: string }) => {
        const c = new Papr({ ...opts, baseURL, maxRetries: 0 });
        walkClient(c, (m) => called.add(m));
        return c;
      };
      const main = client({ xAPIKey: rig.t.key });
      const walked = walkClient(main);
      const ctx: CallContext = {
        client: main,
        keyless: (bearerToken) => client({ xAPIKey: '', bearerToken }),
        ids: {},
        authorize: (url, sub) => rig.idp.authorize(url, sub),
        startWorker: async () => {
          if (worker) return;
          worker = buildWorker({ config: testConfig(env), db: rig.t.db, log: createLogger('silent') });
          await worker.start();
        },
      };
      const pending = walked.filter((m) => !CALLS.some((c) => c.method === m));
      const failures: string[] = [];
      let documented = 0;
      let count = 0;
      for (const call of CALLS) {
        if (!walked.includes(call.method)) continue;
        called = new Set();
        const from = seen.length;
        let err: unknown;
        try {
          await call.run(ctx);
        } catch (e) {
          err = e;
        }
        count++;
        const outcome = judge(call, called.has(call.method), seen.slice(from), err);
        if (outcome.kind === 'documented') documented++;
        else if (outcome.kind === 'pending') pending.push(call.method);
        else failures.push(`${call.method}: ${outcome.why}`);
      }
      console.log(
        `[${store.name}] client methods: ${documented}/${count} answered as documented; ` +
          `pending: ${pending.length ? pending.join(', ') : 'none'}`,
      );
      assert.deepEqual(failures, [], 'methods that did not answer as documented');
      assert.deepEqual(pending, [], 'pending methods (no call written, or no route on the server)');
      assert.equal(documented, walked.length);
    });
  });
}
