import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { request } from 'undici';
import { startApp, testConfig, testStores, type TestApp } from '../../../test/harness.ts';
import { post } from '../../../test/memory-helpers.ts';
import { startReceiver, type Received } from '../../../test/webhook-receiver.ts';
import { sleep, waitFor } from '../../../test/wait.ts';
import { buildWorker } from '../../app.ts';
import { createLogger } from '../../platform/log.ts';
import { createWorker, type Worker } from '../../platform/jobs/index.ts';
import { createEventPublisher } from '../../platform/events/index.ts';
import { internalRange } from './address-policy.ts';
import { blockedCause, createDeliveryAgent } from './delivery-agent.ts';
import { createWebhooksModule } from './index.ts';
import { checkWebhookUrl, RESOLVE_TIMEOUT_MS, type Resolve } from './url-guard.ts';
import type { AppError } from '../../shared/errors.ts';

const log = createLogger('silent');
/** Deliveries go through retries with back-off: wait longer than the default. */
const WAIT = { timeoutMs: 15_000 };

/** What a receiver does to verify a delivery (docs/webhooks.md), written independently of the signer. */
function verify(r: Received, secret: string, toleranceSeconds = 300): boolean {
  const ts = Number(r.headers['x-webhook-timestamp']);
  if (!Number.isInteger(ts) || Math.abs(Date.now() / 1000 - ts) > toleranceSeconds) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(`${ts}.${r.raw}`).digest('hex')}`);
  const given = Buffer.from(String(r.headers['x-webhook-signature'] ?? ''));
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Addresses a webhook must never reach, and why (classification only: nothing connects). */
const INTERNAL: [string, RegExp][] = [
  ['127.0.0.1', /loopback/],
  ['10.1.2.3', /private/],
  ['172.16.0.1', /private/],
  ['192.168.1.1', /private/],
  ['169.254.169.254', /linkLocal/],
  ['100.64.0.1', /carrierGradeNat/],
  ['0.0.0.0', /unspecified/],
  ['0.1.2.3', /unspecified/],
  ['255.255.255.255', /broadcast/],
  ['224.0.0.1', /multicast/],
  ['192.0.2.1', /reserved/], // documentation (TEST-NET-1)
  ['198.51.100.7', /reserved/], // documentation (TEST-NET-2)
  ['203.0.113.9', /reserved/], // documentation (TEST-NET-3)
  ['198.18.0.1', /reserved/], // benchmarking 198.18/15
  ['198.19.255.254', /reserved/],
  ['240.0.0.1', /reserved/],
  ['192.0.0.8', /reserved/],
  ['::1', /loopback/],
  ['::', /unspecified/],
  ['fd00::1', /uniqueLocal/],
  ['fc00::1', /uniqueLocal/],
  ['fe80::1', /linkLocal/],
  ['fe80::1%eth0', /linkLocal/],
  ['fec0::1', /SiteLocal/],
  ['ff02::1', /multicast/],
  ['100::1', /discard/],
  ['2001:db8::1', /reserved/],
  ['1::1', /global unicast/],
  ['::ffff:127.0.0.1', /loopback \(127\.0\.0\.1 inside an IPv4-mapped address\)/],
  ['::ffff:10.0.0.1', /private/],
  ['::127.0.0.1', /loopback \(127\.0\.0\.1 inside an IPv4-compatible address\)/],
  ['::7f00:1', /loopback/],
  ['::ffff:0:7f00:1', /loopback \(127\.0\.0\.1 inside an IPv4-translated address\)/],
  ['64:ff9b::127.0.0.1', /loopback \(127\.0\.0\.1 inside a NAT64 address\)/],
  ['64:ff9b::a9fe:a9fe', /linkLocal/],
  ['64:ff9b:1::7f00:1', /loopback/],
  ['64:ff9b:1:2::1', /local-use NAT64/],
  ['2002:7f00:1::1', /loopback \(127\.0\.0\.1 inside a 6to4 address\)/],
  ['2002:c0a8:101::1', /private/],
  ['2001:0:4136:e378:8000:63bf:80ff:fffe', /loopback \(127\.0\.0\.1 inside a Teredo address\)/], // client 127.0.0.1
  ['2001:0:a00:1:8000:63bf:f7f7:f7f7', /private/], // server 10.0.0.1
  ['not-an-address', /not an IP address/],
];

describe('webhook address policy', () => {
  it('refuses every internal, special-purpose and embedded-internal address, naming its range', () => {
    for (const [a, range] of INTERNAL) assert.match(internalRange(a) ?? 'allowed', range, a);
  });

  it('allows public addresses, also when embedded in NAT64, 6to4, Teredo or mapped form', () => {
    for (const a of [
      '8.8.8.8',
      '1.1.1.1',
      '93.184.216.34',
      '2606:4700::1111',
      '2606:4700:4700::1111',
      '2001:4860:4860::8888',
      '::ffff:8.8.8.8',
      '64:ff9b::808:808',
      '2002:808:808::1',
      '2001:0:4136:e378:8000:63bf:f7f7:f7f7',
    ]) {
      assert.equal(internalRange(a), null, a);
    }
  });

  it('a host name that does not resolve in time is a 422, not a request left waiting', async () => {
    const never: Resolve = () => new Promise(() => {});
    const started = performance.now();
    await assert.rejects(checkWebhookUrl('https://slow.test/hook', false, never), (err: AppError) => {
      assert.equal(err.code, 422);
      assert.match(err.message, /did not resolve within 3 s/);
      return true;
    });
    assert.ok(performance.now() - started < RESOLVE_TIMEOUT_MS + 1500);
  });

  it('the delivery dispatcher refuses a literal or a name resolving inside before connecting', async () => {
    // A bare TCP listener on loopback: it counts connections, so "before connecting" is checked.
    let connections = 0;
    const listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const { port } = listener.address() as AddressInfo;
    const calls: string[] = [];
    const resolve: Resolve = async (host) => {
      calls.push(host);
      return [{ address: '127.0.0.1', family: 4 }];
    };
    const agent = createDeliveryAgent({ allowPrivate: false, resolve, connectTimeoutMs: 2000 });
    try {
      for (const url of [`http://127.0.0.1:${port}/literal`, `http://hooks.test:${port}/named`]) {
        const err = await request(url, { method: 'POST', body: '{}', dispatcher: agent }).then(
          () => assert.fail(`${url} was reached`),
          (e: unknown) => e,
        );
        assert.match(blockedCause(err)?.message ?? String(err), /refused to connect: .*127\.0\.0\.1.*loopback/, url);
      }
      assert.deepEqual(calls, ['hooks.test'], 'a literal is never looked up');
      assert.equal(connections, 0, 'no connection was opened');
    } finally {
      await agent.close();
      await new Promise((resolve) => listener.close(resolve));
    }
  });
});

for (const store of testStores) {
  describe(`webhooks [${store.name}]`, () => {
    const env = {
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_MAX_ATTEMPTS: '3',
      JOB_BACKOFF_BASE_MS: '50',
      WORKER_POLL_MS: '50',
    };
    let t: TestApp;
    let strict: TestApp;
    let worker: Worker;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    const deliveries = (where: string, params: unknown[]) =>
      t.db.query(`SELECT * FROM webhook_deliveries WHERE ${where}`, params);

    before(async () => {
      // /flaky fails once, /down always; everything else succeeds.
      receiver = await startReceiver((r, n) => (r.path === '/down' ? 500 : r.path === '/flaky' && n === 1 ? 500 : 200));
      t = await startApp(store, { env });
      worker = buildWorker({ config: testConfig(env), db: t.db, log });
      await worker.start();
      strict = await startApp(store);
    });
    after(async () => {
      await worker.stop();
      await t.close();
      await strict.close();
      await receiver.close();
    });

    it('a memory delivers memory.completed, signed, with the secret header', async () => {
      const res = await post(
        t,
        `/v1/memory?webhook_url=${encodeURIComponent(receiver.url('/one'))}&webhook_secret=s3cret`,
        { content: 'Webhook memory', external_user_id: 'wh' },
      );
      assert.equal(res.statusCode, 200, res.body);
      const id = res.json().data[0].memoryId;
      await waitFor(() => receiver.at('/one').length === 1, WAIT);
      const [r] = receiver.at('/one');
      assert.equal(r.headers['x-webhook-secret'], 's3cret');
      assert.equal(r.headers['x-engram-event'], 'memory.completed');
      assert.equal(r.headers['content-type'], 'application/json');
      assert.ok(verify(r, 's3cret'), 'signature verifies');
      assert.equal(
        verify({ ...r, raw: r.raw.replace('completed', 'failed') }, 's3cret'),
        false,
        'a changed body does not verify',
      );
      assert.equal(verify(r, 'other'), false);
      assert.equal(
        verify(
          {
            ...r,
            headers: { ...r.headers, 'x-webhook-timestamp': String(Number(r.headers['x-webhook-timestamp']) - 3600) },
          },
          's3cret',
        ),
        false,
        'an old timestamp is a replay',
      );
      assert.deepEqual(
        {
          event: r.body.event,
          memory_id: r.body.memory_id,
          status: r.body.status,
          attempt: r.body.attempt,
          error: r.body.error,
          org: r.body.organization_id,
        },
        { event: 'memory.completed', memory_id: id, status: 'completed', attempt: 1, error: null, org: t.orgId },
      );
      assert.ok(r.body.event_id && r.body.delivery_id && r.body.finished_at && r.body.created_at);
      await waitFor(async () => (await deliveries('memory_id = $1', [id]))[0].status === 'delivered', WAIT);
      const [d] = await deliveries('memory_id = $1', [id]);
      assert.deepEqual({ attempts: d.attempts, code: d.last_status_code }, { attempts: 1, code: 200 });
    });

    it('without a secret there is no secret header and no signature', async () => {
      await post(t, `/v1/memory?webhook_url=${encodeURIComponent(receiver.url('/plain'))}`, {
        content: 'No secret',
        external_user_id: 'wh',
      });
      await waitFor(() => receiver.at('/plain').length === 1, WAIT);
      const [r] = receiver.at('/plain');
      assert.equal(r.headers['x-webhook-secret'], undefined);
      assert.equal(r.headers['x-webhook-signature'], undefined);
      assert.equal(r.body.event, 'memory.completed');
    });

    it('skip_background_processing delivers at once (the memory is completed when stored)', async () => {
      const res = await post(
        t,
        `/v1/memory?skip_background_processing=true&webhook_url=${encodeURIComponent(receiver.url('/skip'))}`,
        { content: 'Skip', external_user_id: 'wh' },
      );
      await waitFor(() => receiver.at('/skip').length === 1, WAIT);
      assert.equal(receiver.at('/skip')[0].body.memory_id, res.json().data[0].memoryId);
    });

    it('a batch delivers one batch.completed with its counts, none per memory', async () => {
      const res = await post(t, '/v1/memory/batch', {
        memories: [{ content: 'B one' }, { content: 'B two' }, { content: 'B three' }, { content: '' }],
        external_user_id: 'wh',
        batch_size: 2,
        webhook_url: receiver.url('/batch'),
        webhook_secret: 'bs',
      });
      assert.equal(res.statusCode, 207, res.body);
      const batchId = res.json().batch_id;
      await waitFor(() => receiver.at('/batch').length === 1, WAIT);
      await sleep(300);
      const hits = receiver.at('/batch');
      assert.equal(hits.length, 1, 'exactly one delivery');
      assert.deepEqual(
        {
          event: hits[0].body.event,
          batch_id: hits[0].body.batch_id,
          status: hits[0].body.status,
          counts: hits[0].body.counts,
        },
        {
          event: 'batch.completed',
          batch_id: batchId,
          status: 'completed',
          counts: { total: 3, completed: 3, failed: 0 },
        },
      );
      assert.ok(verify(hits[0], 'bs'));
    });

    it('retries after a 500 and records the delivery', async () => {
      const res = await post(t, `/v1/memory?webhook_url=${encodeURIComponent(receiver.url('/flaky'))}`, {
        content: 'Flaky receiver',
        external_user_id: 'wh',
      });
      const id = res.json().data[0].memoryId;
      await waitFor(async () => (await deliveries('memory_id = $1', [id]))[0].status === 'delivered', WAIT);
      const [d] = await deliveries('memory_id = $1', [id]);
      assert.deepEqual({ attempts: d.attempts, code: d.last_status_code }, { attempts: 2, code: 200 });
      const hits = receiver.at('/flaky');
      assert.equal(hits.length, 2);
      assert.equal(hits[0].body.event_id, hits[1].body.event_id, 'a retry is the same event');
      assert.deepEqual(
        hits.map((h) => h.body.attempt),
        [1, 2],
      );
    });

    it('gives up after WEBHOOK_MAX_ATTEMPTS and records the failure', async () => {
      const res = await post(t, `/v1/memory?webhook_url=${encodeURIComponent(receiver.url('/down'))}`, {
        content: 'Receiver down',
        external_user_id: 'wh',
      });
      const id = res.json().data[0].memoryId;
      await waitFor(async () => (await deliveries('memory_id = $1', [id]))[0].status === 'failed', WAIT);
      const [d] = await deliveries('memory_id = $1', [id]);
      assert.deepEqual(
        { attempts: d.attempts, code: d.last_status_code, error: d.last_error },
        { attempts: 3, code: 500, error: 'receiver answered HTTP 500' },
      );
      assert.ok(d.failed_at);
      // The delivery records its failure before the worker marks the job dead: wait for both.
      const job = async () =>
        (
          await t.db.query(
            `SELECT status, attempts FROM jobs WHERE kind = 'webhook.deliver' AND payload->>'delivery_id' = $1`,
            [d.id],
          )
        )[0];
      await waitFor(async () => (await job()).status !== 'running', WAIT);
      assert.deepEqual(await job(), { status: 'dead', attempts: 3 });
      await sleep(300);
      assert.equal(receiver.at('/down').length, 3, 'no attempt after giving up');
      // The memory itself is unaffected by its webhook failing.
      const s = await t.app.inject({ url: `/v1/memory/status/${id}`, headers: { 'x-api-key': t.key } });
      assert.equal(s.json().processing_status, 'completed');
    });

    it('refuses invalid and (by default) private webhook URLs with 422, storing nothing', async () => {
      const before = (await strict.db.query('SELECT count(*)::int AS n FROM memories'))[0].n;
      for (const url of [
        'http://127.0.0.1:9/x',
        'http://[::1]/x',
        'http://[::127.0.0.1]:9/x',
        'http://[64:ff9b::127.0.0.1]/x',
        'http://[2002:7f00:1::1]/x',
        'http://[::ffff:0:7f00:1]/x',
        'http://[::ffff:127.0.0.1]/x',
        'http://192.0.2.1/x',
        'http://198.51.100.1/x',
        'http://203.0.113.1/x',
        'http://0x7f.1/x',
        'http://169.254.169.254/latest',
        'http://localhost/x',
        'ftp://example.com/x',
        'not a url',
        'http://user:pw@example.com/',
      ]) {
        const res = await post(strict, `/v1/memory?webhook_url=${encodeURIComponent(url)}`, {
          content: 'Should not be stored',
          external_user_id: 'wh',
        });
        assert.equal(res.statusCode, 422, `${url}: ${res.body}`);
        assert.equal(res.json().status, 'error');
        assert.match(res.json().error, /webhook_url/);
        const b = await post(strict, '/v1/memory/batch', { memories: [{ content: 'x' }], webhook_url: url });
        assert.equal(b.statusCode, 422, `${url} (batch): ${b.body}`);
      }
      assert.equal((await strict.db.query('SELECT count(*)::int AS n FROM memories'))[0].n, before);
    });

    /**
     * Register a webhook for `rebind.test` (a name real DNS never answers: `resolve` is the
     * only resolver), trigger it and deliver it with a worker of its own on the strict store.
     */
    async function deliverThrough(resolve: Resolve, allowPrivate: boolean, path: string) {
      const mod = createWebhooksModule({ allowPrivate, maxAttempts: 3, timeoutMs: 5000, resolve });
      const hook = await mod.webhooks.check(receiver.url(path).replace('127.0.0.1', 'rebind.test'), 'rs');
      assert.ok(hook);
      const memoryId = `mem-${randomBytes(4).toString('hex')}`;
      const publish = createEventPublisher([mod.onEvent]);
      await strict.db.transaction(async (tx) => {
        await mod.webhooks.subscribe(tx, strict.orgId, { memoryId }, hook);
        await publish(tx, { kind: 'memory.completed', organizationId: strict.orgId, memoryId });
      });
      const w = createWorker({ db: strict.db, log, handlers: mod.jobs, pollMs: 50, backoffMs: () => 50 });
      await w.start();
      try {
        return await waitFor(async () => {
          const [d] = await strict.db.query<any>('SELECT * FROM webhook_deliveries WHERE memory_id = $1', [memoryId]);
          const [job] = await strict.db.query<any>(
            `SELECT status, attempts FROM jobs WHERE kind = 'webhook.deliver' AND payload->>'delivery_id' = $1`,
            [d.id],
          );
          return d.status !== 'pending' && job && !['queued', 'running'].includes(job.status) && { d, job };
        }, WAIT);
      } finally {
        await w.stop();
      }
    }

    it('DNS rebinding: public at registration, 127.0.0.1 at delivery is refused at connect, not retried', async () => {
      const answers: string[] = [];
      const resolve: Resolve = async (host) => {
        assert.equal(host, 'rebind.test');
        answers.push(answers.length === 0 ? '93.184.216.34' : '127.0.0.1');
        return [{ address: answers.at(-1)!, family: 4 }];
      };
      const { d, job } = await deliverThrough(resolve, false, '/rebind');
      // Registration saw the public address (no connection); the socket's own lookup saw loopback.
      assert.deepEqual(answers, ['93.184.216.34', '127.0.0.1']);
      assert.equal(receiver.at('/rebind').length, 0, 'nothing reached the loopback receiver');
      assert.equal(d.status, 'failed');
      assert.equal(d.attempts, 1);
      assert.equal(d.last_status_code, null);
      assert.match(
        d.last_error,
        /^refused to connect: rebind\.test resolved to 127\.0\.0\.1, a non-public address \(loopback\)/,
      );
      assert.deepEqual(job, { status: 'dead', attempts: 1 });
      await sleep(200);
      assert.equal(receiver.at('/rebind').length, 0);
    });

    it('WEBHOOK_ALLOW_PRIVATE takes the same connect-time lookup (the injected name reaches loopback)', async () => {
      let calls = 0;
      const resolve: Resolve = async () => {
        calls++;
        return [{ address: '127.0.0.1', family: 4 }];
      };
      const { d } = await deliverThrough(resolve, true, '/private-name');
      assert.equal(d.status, 'delivered', d.last_error);
      assert.equal(receiver.at('/private-name').length, 1);
      assert.equal(calls, 1, 'resolved once, by the socket (allowPrivate skips the registration lookup)');
    });
  });
}
