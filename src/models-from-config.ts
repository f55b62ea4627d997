/**
 * The models the configuration asks for besides the embedders (platform/models/from-config.ts):
 * the graph extractor and the session summarizer, local by default or an LLM. Part of the
 * composition root (app.ts).
 */
import type { Config } from './config.ts';
import { LOCAL_EXTRACTOR_ID, lazyExtractor, type Extractor } from './platform/models/extractor.ts';
import { createLlmExtractor } from './platform/models/extractor.llm.ts';
import { threadedLocalExtractor } from './platform/models/extractor-thread.ts';
import { backgroundThread } from './platform/models/index.ts';
import type { Summarizer } from './platform/models/summarizer.ts';
import { createLocalSummarizer } from './platform/models/summarizer.local.ts';
import { createLlmSummarizer } from './platform/models/summarizer.llm.ts';
import type { UpdateDecider } from './platform/models/updater.ts';
import { createLlmUpdater } from './platform/models/updater.llm.ts';

/** The chat server of the LLM adapters (extractor, summarizer, update decider); config.ts checks it is set. */
const llmFromConfig = (config: Config) => ({
  baseUrl: config.LLM_BASE_URL!,
  model: config.LLM_MODEL!,
  apiKey: config.LLM_API_KEY,
  timeoutMs: config.LLM_TIMEOUT_MS,
});

/** The graph extractor of the configuration (local rules by default). */
export function extractorFromConfig(config: Config): Extractor {
  if (config.EXTRACTOR === 'llm') {
    return createLlmExtractor(llmFromConfig(config));
  }
  // The worker's extractions (every processed memory) leave the event loop; a search's query
  // extraction (one short text) stays on it, see searchFromConfig.
  return config.EXTRACTOR_THREAD
    ? threadedLocalExtractor(LOCAL_EXTRACTOR_ID, backgroundThread(config))
    : localExtractor();
}

/**
 * Session summaries: extractive and offline by default. Without an embedder: USE lite in its
 * centrality scored level with lexical statistics alone on LoCoMo dev (ROUGE-1 36.4 vs 36.8,
 * `npm run bench:summaries`) at 3× the time, so summaries do not wait on the indexing thread.
 */
export function summarizerFromConfig(config: Config): Summarizer {
  if (config.SUMMARIZER === 'llm') {
    return createLlmSummarizer(llmFromConfig(config));
  }
  return createLocalSummarizer();
}

/** The update decider of MEMORY_UPDATE_DECIDER=llm, or none (offline detection alone; docs/truth.md). */
export function updateDeciderFromConfig(config: Config): UpdateDecider | null {
  return config.MEMORY_UPDATE_DECIDER === 'llm' ? createLlmUpdater(llmFromConfig(config)) : null;
}

/** The compromise-based extractor, loaded on first use (docs/graph.md). */
export const localExtractor = () =>
  lazyExtractor(LOCAL_EXTRACTOR_ID, async () =>
    (await import('./platform/models/extractor.local.ts')).createLocalExtractor(),
  );
