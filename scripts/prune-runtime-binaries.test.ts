import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { BROWSER_ONLY, browserOnlyPaths, foreignBinaryDirs } from './prune-runtime-binaries.ts';

describe('pruning other platforms’ ONNX Runtime binaries', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'ort-bin-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  for (const [os, cpu] of [
    ['linux', 'x64'],
    ['linux', 'arm64'],
    ['darwin', 'arm64'],
    ['win32', 'x64'],
  ]) {
    mkdirSync(path.join(root, os, cpu), { recursive: true });
    writeFileSync(path.join(root, os, cpu, 'onnxruntime_binding.node'), 'x');
  }

  it('lists every platform/arch folder except the one this process loads', () => {
    const foreign = foreignBinaryDirs(root, 'linux', 'x64').map((d) => path.relative(root, d));
    assert.deepEqual(foreign.sort(), ['darwin/arm64', 'linux/arm64', 'win32/x64']);
  });

  it('keeps everything when this platform is not in the layout (never leave an install without its binary)', () => {
    assert.deepEqual(foreignBinaryDirs(root, 'freebsd', 'x64'), []);
    assert.deepEqual(foreignBinaryDirs(root, 'linux', 'ppc64'), []);
  });
});

describe('pruning browser-only files of document packages', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'browser-only-'));
  after(() => rmSync(root, { recursive: true, force: true }));
  const files = [
    'tesseract.js-core/tesseract-core-simd-lstm.js',
    'tesseract.js-core/tesseract-core-simd-lstm.wasm',
    'tesseract.js-core/tesseract-core-simd-lstm.wasm.js',
    'pdfjs-dist/build/pdf.mjs',
    'pdfjs-dist/web/viewer.mjs',
    'pdfjs-dist/legacy/build/pdf.mjs',
    'pdfjs-dist/legacy/build/pdf.mjs.map',
    'pdfjs-dist/legacy/web/viewer.mjs',
    'pdfjs-dist/standard_fonts/FoxitFixed.pfb',
  ];
  for (const f of files) {
    mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
    writeFileSync(path.join(root, f), 'x');
  }
  const pruned = (pkg: string) =>
    browserOnlyPaths(
      path.join(root, pkg),
      BROWSER_ONLY.find((r) => r.pkg === pkg)!,
    )
      .map((p) => path.relative(root, p))
      .sort();

  it("names tesseract's inlined browser builds and keeps the .js + .wasm pair Node loads", () => {
    assert.deepEqual(pruned('tesseract.js-core'), ['tesseract.js-core/tesseract-core-simd-lstm.wasm.js']);
  });

  it("names pdf.js's modern build, viewer and maps, and keeps the legacy build and its fonts", () => {
    assert.deepEqual(pruned('pdfjs-dist'), [
      'pdfjs-dist/build',
      'pdfjs-dist/legacy/build/pdf.mjs.map',
      'pdfjs-dist/legacy/web',
      'pdfjs-dist/web',
    ]);
  });
});
