/**
 * Remove the ONNX Runtime binaries of other operating systems and CPUs from node_modules.
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

function sizeOf(dir: string): number {
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
}
