/**
 * Response compression cost (spec §8: bodies over 1 KB are compressed when asked), in one run:
 *
 * (a) raw: compressing search-like JSON bodies of 1, 2, 20 and 100 KB with the product's
 *     settings (COMPRESSION in src/platform/http/app.ts: level 1 / quality 1, one call) against
 *     @fastify/compress's defaults (gzip level 6 and brotli quality 4; through a zlib stream
 *     above its sync threshold, which is 8 KB on 2 cores);
 * (b) end to end: GET requests over loopback (keep-alive, body read raw) to a server built by
 *     the product's HTTP app factory, without Accept-Encoding and with gzip (and br), and for
 *     reference to bare Fastify with @fastify/compress at its defaults (threshold 1 KB); all
 *     interleaved so drift hits every cell alike.
 *
 * Prints medians and p95s; no assertions.
 *
 *   npm run bench:compress
 *
 * Env: COMPRESS_RAW_RUNS (per cell, default 2000), COMPRESS_HTTP_RUNS (requests per cell, default 1000),
 * COMPRESS_SIZES (body sizes in bytes, default 1024,2048,20480,102400).
 */
import http from 'node:http';
import os from 'node:os';
import zlib from 'node:zlib';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import { loadConfig } from '../src/config.ts';
import { createLogger } from '../src/platform/log.ts';
import { COMPRESSION, createHttpApp } from '../src/platform/http/app.ts';
import { syntheticMemories } from './lib/corpus.ts';
import { median, percentile } from './stats.ts';

const RAW_RUNS = Number(process.env.COMPRESS_RAW_RUNS || 2000);
const HTTP_RUNS = Number(process.env.COMPRESS_HTTP_RUNS || 1000);
const SIZES = (process.env.COMPRESS_SIZES || '1024,2048,20480,102400').split(',').map(Number);
const kb = (n: number) => (n >= 1024 ? `${+(n / 1024).toFixed(1)} KB` : `${n} B`);
const ms = (v: number) => v.toFixed(3);

/** A search response (POST /v1/memory/search) of exactly `bytes` bytes of JSON. */
function searchPage(bytes: number): string {
  const org = randomUUID();
  const owner = randomUUID();
  const memories: Record<string, unknown>[] = [];
  const page = () => JSON.stringify({ code: 200, status: 'success', data: { memories, nodes: [] }, error: null });
  for (const [i, m] of syntheticMemories(Math.ceil(bytes / 400) + 10, 20).entries()) {
    const t = new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
    memories.push({
      id: randomUUID(),
      content: m.content,
      type: m.type,
      user_id: owner,
      acl: { [owner]: { read: true, write: true } },
      external_user_read_access: [m.external_user_id],
      external_user_write_access: [m.external_user_id],
      createdAt: t,
      updatedAt: t,
      external_user_id: m.external_user_id,
      organization_id: org,
      metadata: m.metadata,
      customMetadata: m.metadata.customMetadata,
      role: m.metadata.role,
      category: m.metadata.category,
      conversation_id: m.metadata.conversationId,
      source_type: m.metadata.sourceType,
      status: 'completed',
      similarity_score: 0.8 - i / 1000,
      relevance_score: 0.9 - i / 1000,
    });
    if (Buffer.byteLength(page()) >= bytes) break;
  }
  // Fit the last memory's text (ASCII) so the page is exactly `bytes` long: cut it, or extend it.
  const last = memories[memories.length - 1];
  const text = String(last.content);
  const over = Buffer.byteLength(page()) - bytes;
  if (over <= text.length) last.content = text.slice(0, text.length - over);
  else {
    memories.pop();
    const prev = memories[memories.length - 1];
    const missing = bytes - Buffer.byteLength(page());
    prev.content = `${String(prev.content)} ${text.repeat(Math.ceil(missing / text.length))}`.slice(
      0,
      String(prev.content).length + missing,
    );
  }
  const json = page();
  if (Buffer.byteLength(json) !== bytes) throw new Error(`page of ${Buffer.byteLength(json)} bytes, wanted ${bytes}`);
  return json;
}

interface Stat {
  p50: number;
  p95: number;
}
const stat = (t: number[]): Stat => ({ p50: median(t), p95: percentile(t, 95) });

function timeSync(runs: number, fn: () => unknown): Stat {
  for (let i = 0; i < 500; i++) fn(); // warm-up (JIT, zlib tables)
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    t.push(performance.now() - t0);
  }
  return stat(t);
}

/** Through a zlib stream, as @fastify/compress does above its sync threshold. */
function viaStream(make: () => zlib.Gzip | zlib.BrotliCompress, body: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const s = make();
    s.on('data', () => {});
    s.on('end', resolve);
    s.on('error', reject);
    s.end(body);
  });
}

async function timeAsync(runs: number, fn: () => Promise<unknown>): Promise<Stat> {
  for (let i = 0; i < 100; i++) await fn();
  const t: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    t.push(performance.now() - t0);
  }
  return stat(t);
}

const BR_QUALITY = zlib.constants.BROTLI_PARAM_QUALITY;
const gzip1 = (b: Buffer) => zlib.gzipSync(b, COMPRESSION.zlibOptions);
const br1 = (b: Buffer) => zlib.brotliCompressSync(b, COMPRESSION.brotliOptions);
const gzip6 = (b: Buffer) => zlib.gzipSync(b);
const br4Options = { params: { [BR_QUALITY]: 4 } };
const br4 = (b: Buffer) => zlib.brotliCompressSync(b, br4Options);

/** What is compared: how it runs, and what it makes (for the sizes). */
const METHODS: { name: string; run: (b: Buffer) => unknown; out: (b: Buffer) => Buffer; stream?: boolean }[] = [
  { name: `gzip level ${COMPRESSION.zlibOptions.level}, one call (ours)`, run: gzip1, out: gzip1 },
  { name: 'br quality 1, one call (ours, when offered)', run: br1, out: br1 },
  { name: 'gzip level 6, one call (lib default level)', run: gzip6, out: gzip6 },
  {
    name: 'gzip level 6, zlib stream (lib default > 8 KB)',
    run: (b) => viaStream(() => zlib.createGzip(), b),
    out: gzip6,
    stream: true,
  },
  { name: 'br quality 4, one call (lib default quality)', run: br4, out: br4 },
  {
    name: 'br quality 4, zlib stream (lib default > 8 KB)',
    run: (b) => viaStream(() => zlib.createBrotliCompress(br4Options), b),
    out: br4,
    stream: true,
  },
];

async function rawTable(bodies: Map<number, Buffer>): Promise<void> {
  // Every method on every body first, so the first cell does not pay for the JIT and zlib's set-up.
  for (const body of bodies.values()) for (const m of METHODS) for (let i = 0; i < 200; i++) await m.run(body);
  const rows: string[][] = [['body', 'method', 'p50 ms', 'p95 ms', 'out bytes', 'ratio']];
  for (const [size, body] of bodies) {
    for (const m of METHODS) {
      const s = m.stream
        ? await timeAsync(RAW_RUNS, () => m.run(body) as Promise<void>)
        : timeSync(RAW_RUNS, () => m.run(body));
      const out = m.out(body).length;
      rows.push([kb(size), m.name, ms(s.p50), ms(s.p95), String(out), (out / size).toFixed(3)]);
    }
  }
  print(rows);
}

/** Keep-alive GETs read raw (no decompression in the client: the server's cost is what we time). */
function get(agent: http.Agent, port: number, path: string, enc: string | null) {
  return new Promise<{ ms: number; bytes: number; encoding: string }>((resolve, reject) => {
    const t0 = performance.now();
    const req = http.get(
      { host: '127.0.0.1', port, path, agent, headers: enc ? { 'accept-encoding': enc } : {} },
      (res) => {
        let bytes = 0;
        res.on('data', (d: Buffer) => (bytes += d.length));
        res.on('end', () =>
          res.statusCode === 200
            ? resolve({ ms: performance.now() - t0, bytes, encoding: String(res.headers['content-encoding'] ?? '-') })
            : reject(new Error(`${path} answered ${res.statusCode}`)),
        );
      },
    );
    req.on('error', reject);
  });
}

/** A public GET /bench/:size answering the pre-serialised page (serialisation costs the same either way). */
function benchRoute(app: FastifyInstance, bodies: Map<number, Buffer>): void {
  app.get<{ Params: { size: string } }>('/bench/:size', { config: { public: true } }, async (req, reply) =>
    reply.type('application/json').send(bodies.get(Number(req.params.size))!.toString()),
  );
}

/** The product's HTTP app (createHttpApp, default configuration) with the bench route. */
async function productApp(bodies: Map<number, Buffer>): Promise<FastifyInstance> {
  const config = loadConfig({ LOG_LEVEL: 'silent' });
  const app = await createHttpApp({
    log: createLogger('silent'),
    authenticate: () => Promise.reject(new Error('no credentials in this bench')),
    bodyLimit: config.BODY_LIMIT_BYTES,
    compressMinBytes: config.COMPRESS_MIN_BYTES,
    rateLimit: { max: 0, windowMs: config.RATE_LIMIT_WINDOW_MS },
    docs: false,
    version: 'bench',
  });
  benchRoute(app, bodies);
  return app;
}

/** For reference: bare Fastify with @fastify/compress at its defaults but for the 1 KB threshold. */
async function libraryDefaultsApp(bodies: Map<number, Buffer>): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(compress, { threshold: 1024 });
  benchRoute(app, bodies);
  return app;
}

async function httpTable(bodies: Map<number, Buffer>): Promise<void> {
  const servers = [
    { name: 'product', app: await productApp(bodies), encs: [null, 'gzip', 'br', 'gzip, deflate, br'] },
    { name: 'lib defaults', app: await libraryDefaultsApp(bodies), encs: [null, 'gzip', 'br'] },
  ];
  // The last of the product's is what curl --compressed and browsers send: which encoding wins is in the table.
  const ports = new Map<string, number>();
  for (const s of servers) {
    await s.app.listen({ host: '127.0.0.1', port: 0 });
    ports.set(s.name, (s.app.server.address() as AddressInfo).port);
  }
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  const times = new Map<string, number[]>();
  const seen = new Map<string, { bytes: number; encoding: string }>();
  try {
    for (let i = 0; i < HTTP_RUNS + 100; i++) {
      for (const size of bodies.keys()) {
        for (const s of servers) {
          for (const enc of s.encs) {
            const r = await get(agent, ports.get(s.name)!, `/bench/${size}`, enc);
            if (i < 100) continue; // warm-up
            const key = `${s.name} ${size} ${enc}`;
            (times.get(key) ?? times.set(key, []).get(key)!).push(r.ms);
            seen.set(key, r);
          }
        }
      }
    }
  } finally {
    agent.destroy();
    for (const s of servers) await s.app.close();
  }
  const rows: string[][] = [
    ['body', 'server', 'Accept-Encoding', 'p50 ms', 'p95 ms', 'extra p50 ms', 'wire bytes', 'encoding'],
  ];
  for (const size of bodies.keys()) {
    for (const s of servers) {
      const plain = median(times.get(`${s.name} ${size} null`)!);
      for (const enc of s.encs) {
        const t = times.get(`${s.name} ${size} ${enc}`)!;
        const r = seen.get(`${s.name} ${size} ${enc}`)!;
        const extra = enc ? ms(median(t) - plain) : '';
        rows.push([
          kb(size),
          s.name,
          enc ?? '(none)',
          ms(median(t)),
          ms(percentile(t, 95)),
          extra,
          String(r.bytes),
          r.encoding,
        ]);
      }
    }
  }
  print(rows);
}

function print(rows: string[][]): void {
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  // Columns of numbers are right-aligned, header included.
  const numeric = rows[0].map((_, c) => rows.slice(1).every((r) => /^-?[\d.]*$/.test(r[c])));
  for (const r of rows)
    console.log(r.map((v, c) => (numeric[c] ? v.padStart(widths[c]) : v.padEnd(widths[c]))).join('  '));
}

const bodies = new Map(SIZES.map((s) => [s, Buffer.from(searchPage(s))]));
console.log(
  `bench:compress — node ${process.version}, ${os.availableParallelism()} cores, load ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; threshold ${loadConfig({}).COMPRESS_MIN_BYTES} B, ` +
    `settings ${JSON.stringify({ ...COMPRESSION, brotliOptions: { quality: 1 } })}`,
);
console.log(`\n(a) raw compression of search pages, ${RAW_RUNS} runs each`);
await rawTable(bodies);
console.log(`\n(b) GET over loopback through createHttpApp, ${HTTP_RUNS} requests per cell, interleaved`);
await httpTable(bodies);
