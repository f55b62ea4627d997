/**
 * Where each provider's calls go and how our key is sent, from configuration only
 * (docs/ai-proxy.md). A provider is served when its base URL or its key is set; the base URL
 * defaults to the provider's own API (with only a key), and a base URL without a key suits a
 * local OpenAI-compatible server. The caller's credentials are never forwarded: each provider
 * gets only our key, in its own header convention.
 */
import type { Config } from '../../config.ts';
import type { ProviderName } from './providers.ts';

export type AiProxyConfig = Pick<
  Config,
  | 'AI_OPENAI_BASE_URL'
  | 'AI_OPENAI_API_KEY'
  | 'AI_ANTHROPIC_BASE_URL'
  | 'AI_ANTHROPIC_API_KEY'
  | 'AI_ANTHROPIC_VERSION'
  | 'AI_GOOGLE_BASE_URL'
  | 'AI_GOOGLE_API_KEY'
>;

/** Headers of the caller's that a provider's API defines and the proxy passes on. */
export interface CallerHeaders {
  'anthropic-version'?: string;
  'anthropic-beta'?: string;
}

export interface Target {
  baseUrl: string;
  /** Our key (when configured) in the provider's header, and the provider headers passed on. */
  headers(caller: CallerHeaders): Record<string, string>;
}

export type Targets = Partial<Record<ProviderName, Target>>;

const DEFAULT_BASE: Record<ProviderName, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  google: 'https://generativelanguage.googleapis.com/v1beta',
};

const trimmed = (url: string) => url.replace(/\/+$/, '');

function target(
  provider: ProviderName,
  baseUrl: string | undefined,
  key: string | undefined,
  headers: (caller: CallerHeaders) => Record<string, string>,
): Target | undefined {
  if (!baseUrl && !key) return undefined;
  return { baseUrl: trimmed(baseUrl ?? DEFAULT_BASE[provider]), headers };
}

/** The configured providers (absent ones are answered with a 400 saying so). */
export function targetsFromConfig(c: AiProxyConfig): Targets {
  const targets: Targets = {};
  const openai = target('openai', c.AI_OPENAI_BASE_URL, c.AI_OPENAI_API_KEY, (): Record<string, string> =>
    c.AI_OPENAI_API_KEY ? { authorization: `Bearer ${c.AI_OPENAI_API_KEY}` } : {},
  );
  const anthropic = target('anthropic', c.AI_ANTHROPIC_BASE_URL, c.AI_ANTHROPIC_API_KEY, (caller) => ({
    ...(c.AI_ANTHROPIC_API_KEY ? { 'x-api-key': c.AI_ANTHROPIC_API_KEY } : {}),
    'anthropic-version': caller['anthropic-version'] ?? c.AI_ANTHROPIC_VERSION,
    ...(caller['anthropic-beta'] ? { 'anthropic-beta': caller['anthropic-beta'] } : {}),
  }));
  const google = target('google', c.AI_GOOGLE_BASE_URL, c.AI_GOOGLE_API_KEY, (): Record<string, string> =>
    c.AI_GOOGLE_API_KEY ? { 'x-goog-api-key': c.AI_GOOGLE_API_KEY } : {},
  );
  if (openai) targets.openai = openai;
  if (anthropic) targets.anthropic = anthropic;
  if (google) targets.google = google;
  return targets;
}
