/**
 * The official client (@papr/memory 2.8.0), unmodified, against a real listening server on both
 * stores: `client.graph.transform` and `client.graph.rerank` (texts and artifacts, bad input),
 * and search with every reranking provider — svc_enhanced / svc_max over artifacts stored by
 * policy.transform_embedding, the ranker_a default falling back, and ranker_a / ranker_b
 * against local servers that speak the Cohere and OpenAI formats.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Papr from '@papr/memory';
import { buildWorker } from '../src/app.ts';
import type { Worker } from '../src/platform/jobs/index.ts';
import { createLogger } from '../src/platform/log.ts';
import { fakeJsonServer } from './fake-json-server.ts';
import { startApp, testConfig, testStores, type TestApp } from './harness.ts';
import { waitFor } from './wait.ts';

const FACTS = [
  'Vitamin D supplementation reduced hip fractures by 22% in a randomized trial of older adults.',
  'The ridge trail above Sintra starts at the Moorish castle and takes about three hours.',
  'Caroline adopted a rescue greyhound named Biscuit last spring.',
  'Statins lower LDL cholesterol and reduce the risk of heart attacks in high-risk patients.',
];
const QUERY = 'does vitamin D prevent fractures in the elderly';

type Search = {
  data: {
    memories: { content: string; reranker_type?: string; ranker_features?: Record<string, number> }[];
    reranking?: { requested: string; used: string; note?: string };
  };
};

// A Cohere-compatible reranker that prefers documents mentioning dogs; a chat model that prefers trails.
const cohere = fakeJsonServer<{ query: string; documents: string[]; model: string }>(() => (seen) => ({
  status: 200,
  body: {
    results: seen.body.documents.map((d, index) => ({ index, relevance_score: /greyhound/.test(d) ? 0.99 : 0.1 })),
  },
}));
const chat = fakeJsonServer<{ messages: { content: string }[] }>(() => (seen) => {
  const prompt = seen.body.messages.at(-1)!.content;
  const scores = [...prompt.matchAll(/\[(\d+)\]([^\n]*)/g)].map((m) => ({
    index: Number(m[1]),
    score: /trail/.test(m[2]) ? 10 : 1,
  }));
  return { status: 200, body: { choices: [{ message: { content: JSON.stringify({ scores }) } }] } };
});

for (const store of testStores) {
  describe(`official client: graph transform, rerank and search providers [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    let worker: Worker;
    const env = { WORKER_POLL_MS: '50' };
    before(async () => {
      const [rerankUrl, llmUrl] = [await cohere.start(), await chat.start()];
      Object.assign(env, {
        RERANK_URL: rerankUrl,
        RERANK_MODEL: 'rerank-test',
        LLM_BASE_URL: llmUrl,
        LLM_MODEL: 'judge',
      });
      t = await startApp(store, { env });
      const baseURL = await t.app.listen({ port: 0, host: '127.0.0.1' });
      client = new Papr({ xAPIKey: t.key, baseURL, maxRetries: 0 });
      worker = buildWorker({ config: testConfig(env), db: t.db, log: createLogger('silent') });
      await worker.start();
    });
    after(async () => {
      await worker.stop();
      await t.close();
      cohere.stop();
      chat.stop();
    });

    it('transform: 14 bands at 384 dimensions, phases, rot_v3 and concat_embedding; batches', async () => {
      const a = await client.graph.transform({
        text: FACTS[0],
        domain_id: 'scifact',
        metadata: { source: 'test' },
        return_rot_v3: true,
        return_concat: true,
      });
      assert.equal(a.domain_id, 'scifact');
      assert.equal(a.phases.length, 14);
      assert.equal(Object.keys(a.signal_embeddings!).length, 14);
      assert.ok(Object.values(a.signal_embeddings!).every((v) => v.length === 384));
      assert.equal(a.rot_v3!.length, a.embedding.length);
      assert.equal(a.concat_embedding!.length, a.embedding.length + 14 * 384);
      assert.equal((a.meta as { source: string }).source, 'test');
      const batch = (await client.post('/v1/graph/transform', { body: { texts: FACTS.slice(0, 2) } })) as {
        artifacts: unknown[];
      };
      assert.equal(batch.artifacts.length, 2);
    });

    it('rerank: texts and the transform artifacts of the same texts score alike', async () => {
      const byText = await client.graph.rerank({
        query: QUERY,
        documents: FACTS,
        domain_id: 'scifact',
        return_signal_scores: true,
      });
      assert.equal(byText.results[0].index, 0);
      assert.equal(byText.meta.method_used, 'enhanced');
      assert.equal(Object.keys(byText.results[0].signal_scores!).length, 14);
      const artifacts = await Promise.all(FACTS.map((text) => client.graph.transform({ text, domain_id: 'scifact' })));
      const byArtifact = await client.graph.rerank({
        query: QUERY,
        domain_id: 'scifact',
        documents: artifacts.map((a, i) => ({
          text: FACTS[i],
          embedding: a.embedding,
          signals: a.signals,
          signal_embeddings: a.signal_embeddings,
        })),
      });
      assert.deepEqual(
        byArtifact.results.map((r) => [r.index, r.relevance_score]),
        byText.results.map((r) => [r.index, r.relevance_score]),
      );
      const top = await client.graph.rerank({ query: QUERY, documents: FACTS, top_k: 2, method: 'fast' });
      assert.equal(top.results.length, 2);
      assert.equal(top.meta.method_used, 'fast');
    });

    it('bad input: unknown domain 404, wrong embedding width, bad signal_embedder, unknown band 422', async () => {
      const status = (p: Promise<unknown>) =>
        p.then(
          () => 200,
          (e: { status?: number }) => e.status,
        );
      assert.equal(await status(client.graph.transform({ text: 'x', domain_id: 'nope:nothing:1' })), 404);
      assert.equal(await status(client.graph.transform({ text: 'x', embedding: [0.1, 0.2] })), 422);
      assert.equal(await status(client.graph.transform({ text: 'x', signal_embedder: 'qwen' })), 422);
      assert.equal(await status(client.graph.transform({ text: 'x', signal_embedder: 'word2vec' as 'sbert' })), 422);
      assert.equal(
        await status(client.graph.rerank({ query: 'x', documents: ['a'], signal_filters: { nope: 0.1 } })),
        422,
      );
    });

    it('rerank: bands by name or frequency, routing threshold_overrides, usage counts transforms', async () => {
      const [artifact] = await Promise.all([client.graph.transform({ text: FACTS[1], domain_id: 'scifact' })]);
      const mixed = [
        FACTS[0],
        {
          text: FACTS[1],
          embedding: artifact.embedding,
          signals: artifact.signals,
          signal_embeddings: artifact.signal_embeddings,
        },
        FACTS[2],
      ];
      const byName = await client.graph.rerank({
        query: QUERY,
        documents: mixed,
        domain_id: 'scifact',
        signal_multipliers: { claim: 3 },
        return_debug: true,
      });
      // "10" is the main-content band's frequency: the same weights as naming it.
      const byHz = await client.graph.rerank({
        query: QUERY,
        documents: mixed,
        domain_id: 'scifact',
        signal_multipliers: { '10': '3' },
        return_debug: true,
      });
      assert.deepEqual(byHz.meta.debug, byName.meta.debug);
      assert.deepEqual(
        byHz.results.map((r) => r.relevance_score),
        byName.results.map((r) => r.relevance_score),
      );
      // One of three documents came as a complete artifact: two were transformed.
      assert.equal((byName.meta.usage as { transformed: number }).transformed, 2);
      // threshold_overrides filters like signal_filters; the keys Engram has no use for are reported.
      const routed = await client.graph.rerank({
        query: QUERY,
        documents: FACTS,
        domain_id: 'scifact',
        routing_config: { threshold_overrides: { '10': 0.99 }, ce_gate_min_phi: 0.2 },
      });
      assert.ok(routed.results.length < FACTS.length);
      assert.deepEqual((routed.meta as { routing?: { ignored: string[] } }).routing?.ignored, ['ce_gate_min_phi']);
      const status = await client.graph.rerank({ query: 'x', documents: ['a'], signal_multipliers: { '11': 2 } }).then(
        () => 200,
        (e: { status?: number }) => e.status,
      );
      assert.equal(status, 422, 'a frequency that is no band is a 422');
    });

    it('memory writes check policy.transform_embedding at the request: unknown domain or band is a 422', async () => {
      const add = (transform_embedding: Record<string, unknown>) =>
        client.memory
          .add({ content: 'Checked at the door.', external_user_id: 'maya', policy: { transform_embedding } } as never)
          .then(
            () => 200,
            (e: { status?: number; error?: { error?: string } }) => [e.status, e.error?.error],
          );
      const [code, message] = (await add({ mode: 'auto', domain_id: 'nope:nothing:1' })) as [number, string];
      assert.equal(code, 422);
      assert.match(message, /policy\.transform_embedding\.domain_id/);
      assert.equal(
        ((await add({ mode: 'manual', domain_id: 'scifact', signals: { no_band: 'x' } })) as number[])[0],
        422,
      );
      assert.equal(await add({ mode: 'manual', domain_id: 'scifact', signals: { claim: 'checked' } }), 200);
      assert.equal(await add({ mode: 'none', domain_id: 'nope:nothing:1' }), 200, 'mode none makes no artifact');
    });

    it('search: svc_enhanced and svc_max over stored artifacts, and the hosted providers', async () => {
      const added = await client.memory.addBatch({
        external_user_id: 'maya',
        memories: FACTS.map((content) => ({
          content,
          policy: { transform_embedding: { mode: 'auto', domain_id: 'scifact' } },
        })),
      } as never);
      assert.ok(added);
      const ids = await waitFor(
        async () => {
          const rows = await t.db.query<{ n: number }>(
            `SELECT count(*)::int AS n FROM memory_transforms t JOIN memories m ON m.id = t.memory_id
              WHERE m.content = ANY($1)`,
            [FACTS],
          );
          return rows[0].n === FACTS.length || null;
        },
        { timeoutMs: 60_000, what: 'the artifacts of the four facts' },
      );
      assert.ok(ids);
      const search = (reranking_config?: Record<string, unknown>) =>
        client.memory.search({
          query: QUERY,
          external_user_id: 'maya',
          reranking_config,
        } as never) as unknown as Promise<Search>;
      for (const provider of ['svc_enhanced', 'papr_enhanced', 'svc_max', 'papr_max']) {
        const r = await search({
          reranking_enabled: true,
          reranking_provider: provider,
          domain_id: 'scifact',
          return_features: true,
        });
        assert.match(r.data.memories[0].content, /Vitamin D/, provider);
        assert.ok(r.data.memories[0].ranker_features, provider);
        assert.equal(r.data.reranking?.used, provider.replace('papr', 'svc'));
      }
      // ranker_a (cohere) configured here: the fake prefers the greyhound.
      const a = await search({ reranking_enabled: true, reranking_provider: 'cohere' });
      assert.match(a.data.memories[0].content, /greyhound/);
      assert.equal(a.data.memories[0].reranker_type, 'ranker_a');
      assert.equal(cohere.seen.at(-1)!.body.model, 'rerank-test');
      const b = await search({ reranking_enabled: true, reranking_provider: 'openai' });
      assert.match(b.data.memories[0].content, /trail/);
      const none = await search({ reranking_enabled: false });
      assert.equal(none.data.reranking, undefined);
    });
  });

  describe(`search providers not configured [${store.name}]`, () => {
    let t: TestApp;
    let client: Papr;
    before(async () => {
      t = await startApp(store);
      client = new Papr({ xAPIKey: t.key, baseURL: await t.app.listen({ port: 0, host: '127.0.0.1' }), maxRetries: 0 });
      await client.memory.add({ content: FACTS[0], external_user_id: 'maya' } as never);
    });
    after(() => t.close());

    it('the ranker_a default falls back to svc_max and says so; a provider named but missing is a 422', async () => {
      const r = (await client.memory.search({
        query: QUERY,
        external_user_id: 'maya',
        reranking_config: { reranking_enabled: true },
      } as never)) as unknown as Search;
      assert.equal(r.data.reranking?.requested, 'ranker_a');
      assert.equal(r.data.reranking?.used, 'svc_max');
      assert.match(r.data.reranking?.note ?? '', /RERANK_URL/);
      assert.match(r.data.memories[0].content, /Vitamin D/);
      for (const provider of ['cohere', 'ranker_b']) {
        const status = await client.memory
          .search({
            query: QUERY,
            external_user_id: 'maya',
            reranking_config: { reranking_enabled: true, reranking_provider: provider },
          } as never)
          .then(
            () => 200,
            (e: { status?: number }) => e.status,
          );
        assert.equal(status, 422, provider);
      }
    });
  });
}
