/**
 * The deployment files check (`npm run check:deploy`, part of `npm run lint`). The image and
 * the compose stack are not built where the tests run (no container daemon), so this reads
 * them and fails (exit 1, a list of problems) when they drift from the code: a service, image
 * or healthcheck missing, an environment variable src/config does not read (or a value it
 * rejects), an `npm run` script or `node` file that does not exist, a port other than PORT's
 * default. docs/deploy.md.
 *
 *   npx tsx scripts/check-deploy.ts [--compose compose.yaml] [--dockerfile Dockerfile] [--root .]
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { configSchema } from '../src/config.ts';
import { PREBUILT_DIR_ENV } from '../src/platform/models/glove-cache.ts';
import { ENTRIES } from './build.mjs';
import { MALLOC_ENV, NODE_FLAGS } from './launch.mjs';
import { commandLine, commands, envPairs, healthcheckCommand, parseDockerfile } from './lib/dockerfile.ts';
import { notProductionDependencies, serverPackages } from './lib/runtime-packages.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const FIELDS = configSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
/** Read outside src/config (by Node itself, or by the install-time model tools). */
const OTHER_ENV = new Set(['NODE_ENV', 'NODE_OPTIONS', PREBUILT_DIR_ENV]);
export const DEFAULT_PORT = configSchema.shape.PORT.parse(undefined);
const REQUIRED_SERVICES = ['engram-api', 'engram-worker', 'postgres'];

export interface DeployFiles {
  compose: string;
  dockerfile: string;
  /** Where package.json and the files the Dockerfile names are. */
  root: string;
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** An environment variable with its value as Engram would read it; `${...}` values are not checked. */
function checkEnv(where: string, key: string, value: string | undefined, problems: string[]) {
  if (OTHER_ENV.has(key)) return;
  // Read by glibc at process start: the image must set what `npm start` sets (scripts/launch.mjs).
  const malloc = (MALLOC_ENV as Record<string, string>)[key];
  if (malloc !== undefined) {
    if (value !== malloc) problems.push(`${where}: ${key}=${value} differs from scripts/launch.mjs (${malloc})`);
    return;
  }
  const field = FIELDS[key];
  if (!field) problems.push(`${where}: ${key} is not a variable src/config reads`);
  else if (value !== undefined && value !== '' && !value.includes('${') && !field.safeParse(value).success)
    problems.push(`${where}: ${key}=${value} is rejected by src/config`);
}

/** `environment:` as a map (compose also takes a list of `KEY=value`). */
function environmentOf(service: Json): Record<string, string | undefined> {
  const env = service.environment;
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map(String).map((e) => {
        const i = e.indexOf('=');
        return i < 0 ? [e, undefined] : [e.slice(0, i), e.slice(i + 1)];
      }),
    );
  }
  if (!isObject(env)) return {};
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? undefined : String(v)]));
}

function hasHealthcheck(service: Json): boolean {
  const hc = service.healthcheck;
  if (!isObject(hc) || hc.disable === true) return false;
  return (Array.isArray(hc.test) && hc.test.length > 1) || (typeof hc.test === 'string' && hc.test.trim() !== '');
}

export function checkCompose(text: string): string[] {
  const problems: string[] = [];
  let doc: unknown;
  try {
    doc = parse(text, { merge: true });
  } catch (err) {
    return [`compose: not valid YAML: ${(err as Error).message}`];
  }
  const services = isObject(doc) && isObject(doc.services) ? doc.services : null;
  if (!services) return ['compose: no services'];
  for (const name of REQUIRED_SERVICES) if (!services[name]) problems.push(`compose: service ${name} is missing`);

  // Engram's services: the ones built here, and the ones running the image those build.
  const built = new Set(Object.values(services).flatMap((s) => (isObject(s) && s.build ? [String(s.image)] : [])));
  const engram = (s: Json) => Boolean(s.build) || built.has(String(s.image));
  for (const [name, raw] of Object.entries(services)) {
    const where = `compose: ${name}`;
    if (!isObject(raw)) {
      problems.push(`${where}: not a mapping`);
      continue;
    }
    if (!raw.image && !raw.build) problems.push(`${where}: neither image nor build`);
    if (!hasHealthcheck(raw)) problems.push(`${where}: no healthcheck`);
    if (!engram(raw)) continue;
    const env = environmentOf(raw);
    for (const [key, value] of Object.entries(env)) checkEnv(where, key, value, problems);
    const port = env.PORT && !env.PORT.includes('${') ? Number(env.PORT) : DEFAULT_PORT;
    for (const p of Array.isArray(raw.ports) ? raw.ports : []) {
      const target = isObject(p) ? Number(p.target) : Number(String(p).split(':').pop()?.split('/')[0]);
      if (target !== port) problems.push(`${where}: publishes container port ${target}, the server listens on ${port}`);
    }
    // DATABASE_URL names a service of the stack: start after it is healthy.
    const host = env.DATABASE_URL && /@([^:/]+)[:/]/.exec(env.DATABASE_URL)?.[1];
    if (host && services[host]) {
      const deps = isObject(raw.depends_on) ? raw.depends_on : {};
      const dep = deps[host];
      if (!isObject(dep) || dep.condition !== 'service_healthy')
        problems.push(`${where}: depends_on ${host} without condition: service_healthy`);
      const db = services[host];
      if (!isObject(db) || !/pgvector/.test(String(db.image)))
        problems.push(`compose: ${host}: the database image must include pgvector`);
    }
  }
  const roles = (name: string) => (isObject(services[name]) ? environmentOf(services[name]).ROLES : undefined);
  if (services['engram-api'] && roles('engram-api') !== 'api') problems.push('compose: engram-api: ROLES must be api');
  if (services['engram-worker'] && roles('engram-worker') !== 'worker')
    problems.push('compose: engram-worker: ROLES must be worker');
  return problems;
}

/** Is `file` (relative to root) on disk, or an output of scripts/build.mjs (`dist/<entry>.js`)? */
function fileExists(root: string, file: string): boolean {
  if (fs.existsSync(path.resolve(root, file))) return true;
  const out = /^(?:\.\/)?dist\/([^/]+)\.js$/.exec(file);
  return Boolean(
    out &&
    ENTRIES.some((e) => {
      // An entry is a path (output named after it) or {in, out} (output named `out`).
      const [src, name] = typeof e === 'string' ? [e, path.basename(e, '.ts')] : [e.in, e.out];
      return name === out[1] && fs.existsSync(path.join(root, src));
    }),
  );
}

interface PackageJson {
  scripts: Json;
  dependencies?: Record<string, string>;
}

/**
 * `pkg` is package.json (read from `root` by default); `used`, the packages the server build
 * imports (by default found by building it: ~0.3 s).
 */
export function checkDockerfile(
  text: string,
  root: string,
  pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson,
  used?: string[],
): string[] {
  const problems: string[] = [];
  const { scripts } = pkg;
  const stages = parseDockerfile(text);
  if (stages.length < 2) problems.push('Dockerfile: not multi-stage');
  const final = stages[stages.length - 1]?.instructions ?? [];
  const user = final.filter((i) => i.keyword === 'USER').pop();
  if (!user || /^(root|0)(:|$)/.test(user.args)) problems.push('Dockerfile: the runtime stage runs as root');
  if (!final.some((i) => i.keyword === 'HEALTHCHECK' && !/^NONE$/i.test(i.args)))
    problems.push('Dockerfile: no HEALTHCHECK in the runtime stage');
  const exposed = final.filter((i) => i.keyword === 'EXPOSE').flatMap((i) => i.args.split(/\s+/));
  if (exposed.length === 0) problems.push('Dockerfile: EXPOSEs no port');
  for (const p of exposed)
    if (Number(p.split('/')[0]) !== DEFAULT_PORT)
      problems.push(`Dockerfile: EXPOSE ${p}, PORT defaults to ${DEFAULT_PORT}`);
  let npmrc = false;
  for (const { instructions } of stages) {
    for (const ins of instructions) {
      const where = `Dockerfile:${ins.line}`;
      if (ins.keyword === 'ENV') {
        for (const [key, value] of envPairs(ins.args)) checkEnv(where, key, value, problems);
        const port = /\bPORT=(\d+)/.exec(ins.args)?.[1];
        if (instructions === final && port && !exposed.includes(port))
          problems.push(`${where}: PORT=${port} is not the EXPOSEd port`);
      }
      if (ins.keyword === 'COPY' || ins.keyword === 'ADD') {
        const words = ins.args.split(/\s+/).filter((w) => !w.startsWith('--'));
        if (/--from=/.test(ins.args)) continue;
        for (const src of words.slice(0, -1)) {
          if (src === '.npmrc') npmrc = true;
          if (!/[*?[]/.test(src) && !fs.existsSync(path.resolve(root, src)))
            problems.push(`${where}: COPY ${src}: no such file`);
        }
      }
      const line =
        ins.keyword === 'RUN' || ins.keyword === 'CMD' || ins.keyword === 'ENTRYPOINT'
          ? commandLine(ins.args)
          : ins.keyword === 'HEALTHCHECK'
            ? healthcheckCommand(ins.args)
            : null;
      for (const words of line ? commands(line) : []) {
        if (words[0] === 'npm' && words[1] === 'run' && words[2] && !(words[2] in scripts))
          problems.push(`${where}: npm run ${words[2]}: no such script in package.json`);
        // node's script is its first word that is not a flag (`node -e …` runs none).
        const script =
          words[0] === 'node' && !words.includes('-e') ? words.slice(1).find((w) => !w.startsWith('-')) : undefined;
        if (script && !fileExists(root, script)) problems.push(`${where}: node ${script}: no such file`);
      }
    }
  }
  if (!npmrc) problems.push('Dockerfile: .npmrc is not copied (onnxruntime-node-install=skip)');
  // The image runs the server directly: it must give it the flags `npm start` does.
  const cmd = final.filter((i) => i.keyword === 'CMD').pop();
  const cmdWords = cmd ? commands(commandLine(cmd.args)).flat() : [];
  for (const flag of NODE_FLAGS)
    if (!cmdWords.includes(flag)) problems.push(`Dockerfile: CMD lacks ${flag} (scripts/launch.mjs NODE_FLAGS)`);
  if (/--omit=dev|--production\b/.test(text)) {
    for (const name of notProductionDependencies(used ?? serverPackages(root), pkg.dependencies))
      problems.push(`Dockerfile: the server imports ${name}, which the runtime stage prunes (not in dependencies)`);
  }
  return problems;
}

export function checkDeploy(files: DeployFiles): string[] {
  return [
    ...checkCompose(fs.readFileSync(files.compose, 'utf8')),
    ...checkDockerfile(fs.readFileSync(files.dockerfile, 'utf8'), files.root),
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const arg = (name: string, dflt: string) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 && process.argv[i + 1] ? path.resolve(process.argv[i + 1]) : dflt;
  };
  const root = arg('root', ROOT);
  const files = {
    root,
    compose: arg('compose', path.join(root, 'compose.yaml')),
    dockerfile: arg('dockerfile', path.join(root, 'Dockerfile')),
  };
  const problems = checkDeploy(files);
  if (problems.length) {
    console.error(`Deployment files out of step with the code:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`deploy files ok (${path.relative(process.cwd(), files.compose) || files.compose}, Dockerfile)`);
}
