#!/usr/bin/env node
/**
 * The `engram` command (package.json "bin"): the compiled CLI (dist/cli.js, from src/cli/main.ts),
 * building dist/ first when src/ changed since the last build (scripts/build.mjs), as `npm start`
 * does for the server. docs/cli.md describes the commands.
 */
import { ensureBuilt } from '../scripts/build.mjs';

const ms = ensureBuilt();
if (ms) console.error(`[engram] compiled src/ into dist/ in ${ms} ms`);
await import('../dist/cli.js');
