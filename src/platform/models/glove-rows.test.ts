import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { fileRows, memoryRows } from './glove-rows.ts';

describe('GloVe rows read on demand', () => {
  const dirs: string[] = [];
  after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  /** A table of `count` rows of 3 floats where row r is [r, -r, r / 4]. */
  async function table(count: number) {
    const dir = await mkdtemp(path.join(tmpdir(), 'glove-rows-'));
    dirs.push(dir);
    const vectors = new Float32Array(count * 3);
    for (let r = 0; r < count; r++) vectors.set([r, -r, r / 4], r * 3);
    const file = path.join(dir, 't.f32');
    await writeFile(file, Buffer.from(vectors.buffer));
    return { file, vectors };
  }

  it('gives the same floats as the table in memory, resident, cached and evicted rows alike', async () => {
    const { file, vectors } = await table(50);
    const inMemory = memoryRows(vectors, 3);
    const onDisk = fileRows(file, 50, 3, { residentRows: 5, cachedRows: 4 });
    assert.equal(onDisk.count, 50);
    // Twice through every row: the second pass reads rows the 4-row LRU has dropped again.
    for (const pass of [1, 2]) {
      for (let r = 0; r < 50; r++) {
        assert.deepEqual(Array.from(onDisk.row(r)), Array.from(inMemory.row(r)), `row ${r}, pass ${pass}`);
      }
    }
    // A recently used row survives while others come and go.
    const kept = onDisk.row(20);
    for (const r of [21, 22, 23]) onDisk.row(r);
    assert.equal(onDisk.row(20), kept, 'row 20 served from the LRU, not read again');
    for (const r of [24, 25, 26, 27]) onDisk.row(r);
    assert.notEqual(onDisk.row(20), kept, 'row 20 dropped after 4 newer rows, then read again');
    assert.deepEqual(Array.from(onDisk.row(20)), [20, -20, 5]);
  });

  it('fails loudly on a file shorter than the metadata says', async () => {
    const { file } = await table(10);
    const rows = fileRows(file, 12, 3, { residentRows: 0 });
    assert.deepEqual(Array.from(rows.row(9)), [9, -9, 2.25]);
    assert.throws(() => rows.row(11), /shorter than its metadata says/);
  });
});
