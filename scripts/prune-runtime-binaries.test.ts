import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { foreignBinaryDirs } from './prune-runtime-binaries.ts';

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
