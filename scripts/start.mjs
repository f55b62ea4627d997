#!/usr/bin/env node
/**
 * `npm start`: run the compiled server (dist/main.js), building it first when src/ changed
 * since the last build (~0.2 s; scripts/build.mjs). The server runs in this process.
 */
import { ensureBuilt } from './build.mjs';

const ms = ensureBuilt();
if (ms) console.error(`[start] compiled src/ into dist/ in ${ms} ms`);
await import('../dist/main.js');
