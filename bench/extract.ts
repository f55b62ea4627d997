/**
 * Local (no-LLM) entity extraction on real data: every LoCoMo dialogue turn is one memory,
 * written as the LoCoMo benchmark writes it (`<speaker> said, "<text>"`, plus the image
 * caption) with the session time as `createdAt`. Prints per-memory latency (median, p95),
 * throughput, node and relationship totals and the most frequent types. No assertions.
 *
 *   npm run bench:extract
 *   EXTRACT_SAMPLES=5 npm run bench:extract      (also print 5 evenly spaced extractions)
 *
 * Other knobs: LOCOMO_FILE (default: the dev split), LOCOMO_LIMIT_CONV (first N conversations).
 */
import { createLocalExtractor } from '../src/platform/models/extractor.local.ts';
import type { Extraction } from '../src/platform/models/extractor.ts';
import { loadLocomo, turnMemories } from './lib/locomo-data.ts';
import { fmt, median, percentile } from './stats.ts';

const FILE = process.env.LOCOMO_FILE || '/work/shared/data/locomo/locomo-dev.json';
const LIMIT = Number(process.env.LOCOMO_LIMIT_CONV || 0);
const SAMPLES = Number(process.env.EXTRACT_SAMPLES || 0);

const memories = loadLocomo(FILE)
  .slice(0, LIMIT > 0 ? LIMIT : undefined)
  .flatMap(turnMemories)
  .map((m) => ({ content: m.content, createdAt: new Date(m.metadata.createdAt!) }));
const extractor = createLocalExtractor();

// The first call loads compromise's lexicon and compiles its patterns: reported on its own.
const coldStart = performance.now();
await extractor.extract({ content: 'Warm-up: Jane met Bob in Paris yesterday.', createdAt: new Date() });
const coldMs = performance.now() - coldStart;

const latencies: number[] = [];
const results: Extraction[] = [];
const cpu0 = process.cpuUsage();
const t0 = performance.now();
for (const m of memories) {
  const t = performance.now();
  results.push(await extractor.extract(m));
  latencies.push(performance.now() - t);
}
const totalMs = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
// CPU time is what the worker pays; wall time also counts waiting for a busy machine.
const cpuMsPerMemory = (cpu.user + cpu.system) / 1000 / memories.length;

const count = (values: string[]) => {
  const c = new Map<string, number>();
  for (const v of values) c.set(v, (c.get(v) ?? 0) + 1);
  return [...c.entries()].sort((a, b) => b[1] - a[1]);
};
const nodes = results.flatMap((r) => r.nodes);
const rels = results.flatMap((r) => r.relationships);
const typed = rels.filter((r) => r.type !== 'MENTIONED_WITH');
const show = (rows: [string, number][], n: number) =>
  rows
    .slice(0, n)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

console.log(`extractor ${extractor.id} on ${memories.length} LoCoMo turns (${FILE})`);
console.log(`first call (cold)       ${fmt(coldMs)}`);
console.log(
  `per memory              median ${fmt(median(latencies))}, p95 ${fmt(percentile(latencies, 95))}, max ` +
    `${fmt(Math.max(...latencies))}`,
);
console.log(
  `throughput              ${((memories.length / totalMs) * 1000).toFixed(0)} memories/s wall (one core, ` +
    `sequential); CPU ${cpuMsPerMemory.toFixed(2)} ms/memory = ${(1000 / cpuMsPerMemory).toFixed(0)} memories/s`,
);
console.log(`nodes                   ${nodes.length} (${(nodes.length / memories.length).toFixed(2)}/memory)`);
console.log(
  `relationships           ${rels.length} (${(rels.length / memories.length).toFixed(2)}/memory), typed ` +
    `${typed.length}, MENTIONED_WITH ${rels.length - typed.length}`,
);
console.log(
  `memories with a typed relationship: ` +
    `${results.filter((r) => r.relationships.some((x) => x.type !== 'MENTIONED_WITH')).length}`,
);
console.log(`node types              ${show(count(nodes.map((n) => n.type)), 10)}`);
console.log(`relationship types      ${show(count(rels.map((r) => r.type)), 20)}`);
console.log(
  `top non-speaker nodes   ` +
    `${show(count(nodes.filter((n) => n.key !== 'speaker').map((n) => `${n.type}:${n.name}`)), 15)}`,
);
for (let i = 0; i < SAMPLES; i++) {
  const at = Math.floor(((i + 0.5) * memories.length) / SAMPLES);
  const r = results[at];
  console.log(`\n${memories[at].content}\n  nodes: ${r.nodes.map((n) => `${n.type}:${n.name}`).join('; ')}`);
  const name = (key: string) => r.nodes.find((n) => n.key === key)?.name ?? key;
  console.log(`  rels:  ${r.relationships.map((x) => `${name(x.source)} -${x.type}-> ${name(x.target)}`).join('; ')}`);
}
console.log(
  JSON.stringify({
    bench: 'extract',
    memories: memories.length,
    median_ms: +median(latencies).toFixed(3),
    p95_ms: +percentile(latencies, 95).toFixed(3),
    memories_per_s: Math.round((memories.length / totalMs) * 1000),
    cpu_ms_per_memory: +cpuMsPerMemory.toFixed(3),
    nodes: nodes.length,
    relationships: rels.length,
    typed_relationships: typed.length,
  }),
);
