/**
 * scripts/check-deploy.ts on the real Dockerfile and compose.yaml, and on broken copies of
 * them in a temporary folder (the CLI too: exit 1 and the problem named).
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { checkCompose, checkDeploy, checkDockerfile } from './check-deploy.ts';
import { serverPackages } from './lib/runtime-packages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const compose = fs.readFileSync(path.join(ROOT, 'compose.yaml'), 'utf8');
const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'engram-deploy-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** `text` with `from` replaced by `to`, failing if `from` is not there (the test would test nothing). */
function edit(text: string, from: string | RegExp, to: string): string {
  const out = text.replace(from, to);
  assert.notEqual(out, text, `the edit ${String(from)} changed nothing`);
  return out;
}

const run = (args: string[]) =>
  promisify(execFile)(process.execPath, ['--import', 'tsx', 'scripts/check-deploy.ts', ...args], { cwd: ROOT }).then(
    (r) => ({ code: 0, out: r.stdout + r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
  );

describe('check-deploy', () => {
  it('passes on the real files', () => {
    const files = { root: ROOT, compose: path.join(ROOT, 'compose.yaml'), dockerfile: path.join(ROOT, 'Dockerfile') };
    assert.deepEqual(checkDeploy(files), []);
  });

  it('compose: an unknown variable, a bad value, a missing service or healthcheck, a loose depends_on', () => {
    const unknown = edit(compose, 'LOG_LEVEL: info', 'LOG_LEVEL: info\n  ENGRAM_LOG: debug');
    assert.deepEqual(checkCompose(unknown), [
      'compose: engram-api: ENGRAM_LOG is not a variable src/config reads',
      'compose: engram-worker: ENGRAM_LOG is not a variable src/config reads',
    ]);
    assert.deepEqual(checkCompose(edit(compose, 'ROLES: worker', 'ROLES: workers')), [
      'compose: engram-worker: ROLES=workers is rejected by src/config',
      'compose: engram-worker: ROLES must be worker',
    ]);
    assert.deepEqual(checkCompose(edit(compose, /\n {2}postgres:\n[\s\S]*?(?=\nvolumes:)/, '\n')), [
      'compose: service postgres is missing',
    ]);
    const noHealth = edit(
      compose,
      /(image: pgvector\/pgvector:pg16[\s\S]*?)\n {4}healthcheck:[\s\S]*?retries: 10/,
      '$1',
    );
    assert.deepEqual(checkCompose(noHealth), ['compose: postgres: no healthcheck']);
    assert.deepEqual(checkCompose(edit(compose, 'pgvector/pgvector:pg16', 'postgres:16')), [
      'compose: postgres: the database image must include pgvector',
      'compose: postgres: the database image must include pgvector',
    ]);
    const started = edit(compose, 'condition: service_healthy', 'condition: service_started');
    assert.deepEqual(checkCompose(started), [
      'compose: engram-api: depends_on postgres without condition: service_healthy',
    ]);
    assert.deepEqual(checkCompose(edit(compose, "'${ENGRAM_PORT:-8080}:8080'", "'8080:3000'")), [
      'compose: engram-api: publishes container port 3000, the server listens on 8080',
    ]);
    assert.deepEqual(checkCompose('services: [\n'), [checkCompose('services: [\n')[0]]);
    assert.match(checkCompose('services: [\n')[0], /not valid YAML/);
  });

  it('Dockerfile: a missing script or file, another port, root, no healthcheck', () => {
    const missing = edit(dockerfile, 'npm run setup:models', 'npm run setup:weights');
    const line = missing.split('\n').findIndex((l) => l.includes('setup:weights')) + 1;
    assert.deepEqual(checkDockerfile(missing, ROOT), [
      `Dockerfile:${line}: npm run setup:weights: no such script in package.json`,
    ]);
    const noFile = edit(dockerfile, 'node scripts/build.mjs', 'node scripts/compile.mjs');
    assert.match(checkDockerfile(noFile, ROOT).join('\n'), /node scripts\/compile\.mjs: no such file/);
    const noEntry = edit(dockerfile, '"dist/main.js"', '"dist/server.js"');
    assert.match(checkDockerfile(noEntry, ROOT).join('\n'), /node dist\/server\.js: no such file/);
    const port = edit(dockerfile, 'EXPOSE 8080', 'EXPOSE 3000');
    assert.deepEqual(
      checkDockerfile(port, ROOT).map((p) => p.replace(/^Dockerfile:\d+/, 'Dockerfile:N')),
      ['Dockerfile: EXPOSE 3000, PORT defaults to 8080', 'Dockerfile:N: PORT=8080 is not the EXPOSEd port'],
    );
    assert.deepEqual(checkDockerfile(edit(dockerfile, 'USER node', 'USER root'), ROOT), [
      'Dockerfile: the runtime stage runs as root',
    ]);
    assert.deepEqual(checkDockerfile(edit(dockerfile, /HEALTHCHECK[^\n]*\\\n[^\n]*\n/, ''), ROOT), [
      'Dockerfile: no HEALTHCHECK in the runtime stage',
    ]);
    const env = edit(dockerfile, 'DATA_DIR=/data', 'DATA_DIRECTORY=/data');
    assert.match(checkDockerfile(env, ROOT).join('\n'), /DATA_DIRECTORY is not a variable src\/config reads/);
    assert.deepEqual(checkDockerfile(edit(dockerfile, 'package-lock.json .npmrc', 'package-lock.json'), ROOT), [
      'Dockerfile: .npmrc is not copied (onnxruntime-node-install=skip)',
    ]);
    assert.deepEqual(checkDockerfile(edit(dockerfile, '"--max-semi-space-size=4", ', ''), ROOT), [
      'Dockerfile: CMD lacks --max-semi-space-size=4 (scripts/launch.mjs NODE_FLAGS)',
    ]);
  });

  it('Dockerfile: a package the server imports that the runtime stage prunes', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const used = serverPackages(ROOT);
    assert.ok(used.includes('fastify') && used.includes('pg'), used.join(' '));
    assert.ok(!used.includes('@papr/memory') && !used.includes('yaml'), 'dev dependencies are not imported');
    delete pkg.dependencies.pg;
    assert.deepEqual(checkDockerfile(dockerfile, ROOT, pkg, used), [
      'Dockerfile: the server imports pg, which the runtime stage prunes (not in dependencies)',
    ]);
  });

  it('the CLI takes the paths: exit 0 on the real files, 1 on broken copies', async () => {
    const ok = await run([]);
    assert.equal(ok.code, 0, ok.out);
    fs.writeFileSync(
      path.join(tmp, 'compose.yaml'),
      edit(compose, 'ROLES: api', 'ROLES: api\n      ENGRAM_MODE: fast'),
    );
    fs.writeFileSync(path.join(tmp, 'Dockerfile'), edit(dockerfile, 'npm run setup:models', 'npm run setup:all'));
    const bad = await run(['--compose', path.join(tmp, 'compose.yaml'), '--dockerfile', path.join(tmp, 'Dockerfile')]);
    assert.equal(bad.code, 1, bad.out);
    assert.match(bad.out, /engram-api: ENGRAM_MODE is not a variable src\/config reads/);
    assert.match(bad.out, /npm run setup:all: no such script in package.json/);
  });
});
