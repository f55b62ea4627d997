// The fact-chain generator of bench/updates.ts: deterministic, big enough, and its ground truth consistent.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { factChains, KINDS } from './fact-chains.ts';
import { DEV2 } from './fact-kinds-dev2.ts';

const opts = { chains: 320, users: 27, seed: 22 };
const data = factChains(opts);

describe('fact chains', () => {
  it('is deterministic for a seed and differs across seeds', () => {
    assert.deepEqual(factChains(opts), data);
    assert.notDeepEqual(factChains({ ...opts, seed: 23 }).memories, data.memories);
  });

  it('has at least 300 chains of 2-5 memories, over at least 10 kinds, in both template sets', () => {
    assert.ok(data.chains.length >= 300);
    for (const c of data.chains) assert.ok(c.steps.length >= 2 && c.steps.length <= 5, `chain ${c.id}`);
    assert.ok(new Set(data.chains.map((c) => c.kind)).size >= 10);
    const dev = data.chains.filter((c) => c.set === 'dev').length;
    assert.ok(dev > 0.35 * data.chains.length && dev < 0.65 * data.chains.length, `${dev} dev chains`);
  });

  it('keeps dev and heldout wordings disjoint, with at least 6 first statements and updates each', () => {
    for (const k of KINDS) {
      const dev = new Set(Object.values(k.dev).flat());
      for (const t of Object.values(k.heldout).flat()) assert.ok(!dev.has(t), `${k.kind}: ${t} in both sets`);
      for (const w of [k.dev, k.heldout]) assert.ok(w.first.length >= 6 && w.update.length >= 6, k.kind);
    }
  });

  it('has dev2 wordings for every kind, nearly all its own, generated apart', () => {
    // Written blind, dev2 shares only the plainest wordings with the others ("I live in {v}.").
    let shared = 0;
    let all = 0;
    for (const k of KINDS) {
      const w = DEV2[k.kind];
      assert.ok(w && w.first.length >= 6 && w.update.length >= 6, k.kind);
      const seen = new Set([...Object.values(k.dev).flat(), ...Object.values(k.heldout).flat()]);
      for (const t of Object.values(w).flat()) [shared, all] = [shared + (seen.has(t) ? 1 : 0), all + 1];
    }
    assert.ok(shared < 0.1 * all, `${shared} of ${all} dev2 wordings in another set`);
    const dev2 = factChains({ ...opts, wordings: 'dev2' });
    assert.ok(dev2.chains.every((c) => c.set === 'dev2') && dev2.memories.every((m) => m.set === 'dev2'));
  });

  it('gives every question an existing expected memory, of its own user and chain', () => {
    const byKey = new Map(data.memories.map((m) => [m.key, m]));
    assert.equal(byKey.size, data.memories.length, 'keys are unique');
    for (const q of data.questions) {
      const m = byKey.get(q.expected);
      assert.ok(m, q.query);
      assert.equal(m.user, q.user);
      assert.equal(m.chain, q.chain);
      assert.equal(m.role, 'chain');
    }
  });

  it('orders each chain by createdAt, months apart, and past dates fall strictly between steps', () => {
    const byKey = new Map(data.memories.map((m) => [m.key, m]));
    for (const c of data.chains) {
      const times = c.steps.map((k) => Date.parse(byKey.get(k)!.createdAt));
      for (let i = 1; i < times.length; i++) assert.ok(times[i] - times[i - 1] > 60 * 86_400_000, `chain ${c.id}`);
      assert.ok(times[0] >= Date.UTC(2021, 0, 1) && times.at(-1)! < Date.UTC(2026, 0, 1));
    }
    for (const q of data.questions.filter((q) => q.kind === 'past')) {
      const steps = data.chains[q.chain].steps;
      const i = steps.indexOf(q.expected);
      const at = Date.parse(q.asOf!);
      assert.ok(at > Date.parse(byKey.get(steps[i])!.createdAt) && at < Date.parse(byKey.get(steps[i + 1])!.createdAt));
    }
  });

  it('marks only replaced steps non-current, each superseded by the next step', () => {
    const byKey = new Map(data.memories.map((m) => [m.key, m]));
    for (const c of data.chains)
      c.steps.forEach((k, i) => {
        const m = byKey.get(k)!;
        assert.equal(m.shouldBeCurrent, i === c.steps.length - 1);
        assert.deepEqual(m.supersededBy, i < c.steps.length - 1 ? [c.steps[i + 1]] : []);
      });
    for (const m of data.memories.filter((m) => m.role !== 'chain')) assert.equal(m.shouldBeCurrent, true);
  });

  it('never repeats a text for a user (an exact duplicate would be folded) and has 2+ distractors per chain', () => {
    for (let u = 0; u < data.users.length; u++) {
      const texts = data.memories.filter((m) => m.user === u).map((m) => m.content);
      assert.equal(new Set(texts).size, texts.length, `user ${u}`);
    }
    const distractors = data.memories.filter((m) => m.role !== 'chain').length;
    assert.ok(distractors >= 2 * data.chains.length);
  });
});
