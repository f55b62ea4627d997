import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  codeTranslationModel,
  committedCodeTranslation,
  dequantise,
  quantise,
  TRANSLATION_ALPHA,
  TRANSLATION_LAMBDA,
  type CodeTranslationWeights,
} from './code-translation.ts';

/** A table by hand: `iterable` is written for `iter` (0.5) and `hasattr` (0.3). */
function tiny(): CodeTranslationWeights {
  const vocab = ['iterable', 'iter', 'hasattr', 'open', 'path'];
  const bytes = [1, 0, quantise(0.5, 0.01), 2, 0, quantise(0.3, 0.01)];
  return {
    vocab,
    background: [10, 20, 20, 50, 50],
    total: 1000,
    floor: 0.01,
    entries: Buffer.from(bytes).toString('base64'),
    starts: [0, 2, 2, 2, 2, 2],
  };
}

describe('code translation: the table', () => {
  it('keeps a probability to within 2 % through its byte (log scale between the floor and 1)', () => {
    for (const t of [0.01, 0.0137, 0.05, 0.3, 0.5, 0.99, 1]) {
      const back = dequantise(quantise(t, 0.01), 0.01);
      assert.ok(Math.abs(back - t) / t < 0.02, `${t} → ${back}`);
    }
    assert.equal(quantise(0.001, 0.01), 0, 'below the floor: the floor');
  });

  it('scores a query word by the words that translate to it, and by itself when written', () => {
    const score = codeTranslationModel(tiny()).scorer('check if iterable');
    // "check" is unknown: the same smoothed background for both functions, so only "iterable" decides.
    const viaIter = score('def f(x): return iter(x)');
    const viaOpen = score('def g(path): return open(path)');
    assert.ok(viaIter > viaOpen, `${viaIter} vs ${viaOpen}`);
    // By hand for viaIter: words def f x return iter x → "def", "return", "iter" (one-letter parts dropped).
    const pc = (q: number) => (q + 0.5) / 1001;
    const mixed = (1 - TRANSLATION_ALPHA) * dequantise(quantise(0.5, 0.01), 0.01) * (1 / 3);
    const expected =
      Math.log(TRANSLATION_LAMBDA * pc(0)) + Math.log((1 - TRANSLATION_LAMBDA) * mixed + TRANSLATION_LAMBDA * pc(10));
    assert.ok(Math.abs(viaIter - expected) < 1e-9, `${viaIter} vs ${expected}`);
    // Written in the function, the word counts itself (α) as well as any translation.
    assert.ok(score('def is_iterable(x): return iter(x)') > viaIter);
  });

  it('scores a text with no words at all, and a query with none, without failing', () => {
    const m = codeTranslationModel(tiny());
    assert.ok(Number.isFinite(m.scorer('iterable')('')));
    assert.equal(m.scorer('how to in python')('def f(): pass'), 0);
  });
});

describe('code translation: the committed model', () => {
  it('prefers the function that answers a question to an unrelated one, with no word shared', () => {
    // Neither function says "clipboard" or "contents": the table knows xclip and paste go with them.
    const score = committedCodeTranslation().scorer('python get clipboard contents');
    const pastes = score('def paste():\n    return subprocess.check_output(["xclip", "-o"]).decode()');
    const sorts = score('def order(xs):\n    return sorted(xs, key=lambda x: x[1])');
    assert.ok(pastes > sorts + 1, `${pastes} vs ${sorts}`);
  });
});
