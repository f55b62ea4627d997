/**
 * The embedding layer: the `Embedder` port and the factories that build embedders from
 * configuration (from-config.ts). The adapters live beside it (use-lite, glove-sif,
 * openai-compatible, onnx-sentence, cache).
 */
export type { Embedder, Embedders } from './embedder.ts';
export { dot } from './embedder.ts';
export { backgroundThread, createEmbedder, embeddersFromConfig } from './from-config.ts';
export { createGloveSifEmbedder } from './glove-sif.ts';
export { createUseLiteEmbedder } from './use-lite.ts';
export { codeWordsModel, committedCodeWords, type CodeWordsModel } from './code-words.ts';
export { codeTranslationModel, committedCodeTranslation, type CodeTranslationModel } from './code-translation.ts';
