/**
 * What the proxy knows of each provider's wire format (docs/ai-proxy.md): where a call goes
 * under the configured base URL, how our upstream key is sent, where the last user message
 * is, how memories are added as context, and how tokens and the assistant's text are read
 * from a whole answer or from its stream as it passes. Everything else in a body is the
 * provider's own and is forwarded untouched.
 */
import type { Operation, OperationSpec } from './provider-kit.ts';
import { anthropic } from './provider.anthropic.ts';
import { google } from './provider.google.ts';
import { openaiChat, openaiResponses } from './provider.openai.ts';

export type { Operation, OperationSpec, ProviderName, Body, Usage } from './provider-kit.ts';
export { PROVIDERS } from './provider-kit.ts';

/** Each route's operation. */
export const OPERATIONS: Record<Operation, OperationSpec> = {
  chat: openaiChat,
  responses: openaiResponses,
  messages: anthropic,
  generate: google(':generateContent'),
  stream_generate: google(':streamGenerateContent'),
};
