/**
 * Runs the local extractor inside a worker thread (see extractor-thread.ts): answers
 * `{ id, input }` with `{ id, result }` or `{ id, error }`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Extraction, ExtractionInput } from './extractor.ts';
import { createLocalExtractor } from './extractor.local.ts';
import { ModelError } from './model-error.ts';
import { lowerPriority } from './thread-priority.ts';
import { serveThread } from './thread-client.ts';

const port = parentPort!;
lowerPriority((workerData as { nice: number }).nice);
const extractor = createLocalExtractor();

const describe = (err: unknown) => ({
  message: err instanceof Error ? err.message : String(err),
  // Anything else is the rules failing on this input: deterministic, as on the main thread.
  code: err instanceof ModelError ? (err as ModelError<string>).code : 'invalid_input',
  retryable: err instanceof ModelError ? err.retryable : false,
});

serveThread<ExtractionInput, Extraction>(port, (input) => extractor.extract(input), describe);
