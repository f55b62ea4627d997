import type { TestApp } from './harness.ts';

/** POST a JSON body with the app's key (or `key`). */
export function post(t: TestApp, url: string, payload: unknown, key = t.key) {
  return t.app.inject({ method: 'POST', url, headers: { 'x-api-key': key }, payload: payload as any });
}

/** Add one memory and return its id. */
export async function addMemory(t: TestApp, payload: Record<string, unknown>, key = t.key): Promise<string> {
  const res = await post(t, '/v1/memory', payload, key);
  if (res.statusCode !== 200) throw new Error(`add failed: ${res.statusCode} ${res.body}`);
  return res.json().data[0].memoryId;
}

/** Search and return the memories' contents in rank order. */
export async function searchContents(
  t: TestApp,
  payload: Record<string, unknown>,
  query = '',
  key = t.key,
): Promise<string[]> {
  const res = await post(t, `/v1/memory/search${query}`, payload, key);
  if (res.statusCode !== 200) throw new Error(`search failed: ${res.statusCode} ${res.body}`);
  return res.json().data.memories.map((m: { content: string }) => m.content);
}

/**
 * Add a conversation's turns in one batch to each app, as transcripts store them
 * (`Name said, "…"`), with `metadata.speaker` when `labelled`.
 */
export async function addTurns(
  apps: TestApp[],
  externalUserId: string,
  turns: [speaker: string, text: string][],
  opts: { labelled?: boolean } = {},
): Promise<void> {
  for (const app of apps) {
    const res = await post(app, '/v1/memory/batch', {
      memories: turns.map(([speaker, text]) => ({
        content: `${speaker} said, "${text}"`,
        external_user_id: externalUserId,
        ...(opts.labelled ? { metadata: { speaker } } : {}),
      })),
    });
    if (res.statusCode !== 200) throw new Error(`batch failed: ${res.statusCode} ${res.body}`);
  }
}
