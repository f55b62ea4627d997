import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { openPglite } from './pglite.ts';
import { initClusterApart } from './pglite-init.ts';

describe('a new embedded store is created in a child process', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-init-'));
    dirs.push(d);
    return d;
  };
  after(() => dirs.forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

  it('makes the cluster in place of a missing folder, leaves no temporary folder, and PGlite opens it', async () => {
    const dir = tempDir();
    const pgDir = path.join(dir, 'pg');
    await initClusterApart(pgDir);
    assert.ok(fs.existsSync(path.join(pgDir, 'PG_VERSION')), 'a PostgreSQL cluster');
    assert.deepEqual(fs.readdirSync(dir), ['pg'], 'the temporary folder was renamed into place');
    const versionBefore = fs.statSync(path.join(pgDir, 'PG_VERSION')).mtimeMs;

    // openPglite finds the cluster and does not make it again; data is kept across opens.
    const db = await openPglite(dir);
    await db.exec('CREATE TABLE t_init (v text)');
    await db.query("INSERT INTO t_init VALUES ('kept')");
    await db.close();
    const again = await openPglite(dir);
    assert.deepEqual(await again.query('SELECT v FROM t_init'), [{ v: 'kept' }]);
    await again.close();
    assert.equal(fs.statSync(path.join(pgDir, 'PG_VERSION')).mtimeMs, versionBefore);
  });

  it('never touches a folder that holds files but no cluster', async () => {
    const pgDir = path.join(tempDir(), 'pg');
    fs.mkdirSync(pgDir);
    fs.writeFileSync(path.join(pgDir, 'someone-elses.txt'), 'keep me');
    await initClusterApart(pgDir);
    assert.deepEqual(fs.readdirSync(pgDir), ['someone-elses.txt']);
  });

  it('reports a failed creation and cleans up its temporary folder', async () => {
    const dir = tempDir();
    const blocker = path.join(dir, 'not-a-folder');
    fs.writeFileSync(blocker, 'a file where the store should go');
    await assert.rejects(
      initClusterApart(path.join(blocker, 'pg')),
      /Creating the embedded store in .*not-a-folder\/pg failed/,
    );
    assert.deepEqual(fs.readdirSync(dir), ['not-a-folder']);
  });
});
