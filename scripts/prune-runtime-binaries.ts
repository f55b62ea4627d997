/**
 * Remove from node_modules what this install never loads: the ONNX Runtime binaries of other
 * operating systems and CPUs, and the browser-only files of two document packages (BROWSER_ONLY).
 *
 * onnxruntime-node ships its native library for five platforms in one package (288 MB; this
 * platform's share is 45 MB) and loads only `bin/napi-v6/<process.platform>/<process.arch>/`.
 * Run from `npm install`'s postinstall (and by hand: `npx tsx scripts/prune-runtime-binaries.ts`);
 * `npm ci` puts the files back before it runs again. Never fails an install: a folder that is
 * already gone, or a layout this script does not recognise, is left as it is.
 *
 *   --dry-run   only print what would be removed
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

function packageDir(name: string): string | null {
  try {
    return path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    return null; // not installed (e.g. --omit of an optional tree): nothing to prune
  }
}

/** The platform/arch folders of `binRoot` that this process would never load. */
export function foreignBinaryDirs(binRoot: string, platform = process.platform, arch = process.arch): string[] {
  if (!existsSync(path.join(binRoot, platform, arch))) return []; // unknown layout: keep everything
  const foreign: string[] = [];
  for (const os of readdirSync(binRoot)) {
    const osDir = path.join(binRoot, os);
    if (!statSync(osDir).isDirectory()) continue;
    for (const cpu of readdirSync(osDir)) {
      if (os !== platform || cpu !== arch) foreign.push(path.join(osDir, cpu));
    }
  }
  return foreign;
}

/**
 * Browser-only files of packages Node loads only a part of (docs/retrieval.md, "Footprint"):
 * - tesseract.js-core's `*.wasm.js` are single-file browser builds with the WASM inlined as
 *   base64; Node's loader (tesseract.js `worker-script/node/getCore.js`) requires the `.js` +
 *   `.wasm` pair of each variant instead (27 MB);
 * - pdfjs-dist's modern `build/` (we import `legacy/build`, the one for Node), the viewer
 *   (`web/`, `legacy/web/`) and the source maps (36 MB together).
 */
export const BROWSER_ONLY: { pkg: string; dirs: string[]; suffixes: string[] }[] = [
  { pkg: 'tesseract.js-core', dirs: [], suffixes: ['.wasm.js'] },
  { pkg: 'pdfjs-dist', dirs: ['build', 'web', 'legacy/web'], suffixes: ['.map'] },
];

/** The files and folders of `pkgDir` a rule of BROWSER_ONLY names (files searched recursively). */
export function browserOnlyPaths(pkgDir: string, rule: { dirs: string[]; suffixes: string[] }): string[] {
  const out = rule.dirs.map((d) => path.join(pkgDir, d)).filter((d) => existsSync(d));
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (out.includes(p)) continue;
      if (e.isDirectory()) walk(p);
      else if (rule.suffixes.some((s) => e.name.endsWith(s))) out.push(p);
    }
  };
  walk(pkgDir);
  return out;
}

function sizeOf(dir: string): number {
  if (!statSync(dir).isDirectory()) return statSync(dir).size;
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    total += entry.isDirectory() ? sizeOf(p) : statSync(p).size;
  }
  return total;
}

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('prune-runtime-binaries.ts')) {
  const dryRun = process.argv.includes('--dry-run');
  const ort = packageDir('onnxruntime-node');
  const binRoot = ort && path.join(ort, 'bin', 'napi-v6');
  if (binRoot && existsSync(binRoot)) {
    let freed = 0;
    try {
      for (const dir of foreignBinaryDirs(binRoot)) {
        freed += sizeOf(dir);
        if (!dryRun) rmSync(dir, { recursive: true, force: true });
      }
    } catch (err) {
      console.warn(`onnxruntime-node: left other platforms' binaries in place (${(err as Error).message})`);
    }
    if (freed > 0) {
      const mb = (freed / 1e6).toFixed(0);
      console.log(`onnxruntime-node: ${dryRun ? 'would remove' : 'removed'} ${mb} MB of other platforms' binaries`);
    }
  }
  for (const rule of BROWSER_ONLY) {
    const dir = packageDir(rule.pkg);
    if (!dir) continue;
    let freed = 0;
    try {
      for (const p of browserOnlyPaths(dir, rule)) {
        freed += sizeOf(p);
        if (!dryRun) rmSync(p, { recursive: true, force: true });
      }
    } catch (err) {
      console.warn(`${rule.pkg}: left its browser-only files in place (${(err as Error).message})`);
    }
    if (freed > 0) {
      console.log(
        `${rule.pkg}: ${dryRun ? 'would remove' : 'removed'} ${(freed / 1e6).toFixed(0)} MB of browser-only files`,
      );
    }
  }
}
