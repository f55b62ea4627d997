import { after, before } from 'node:test';
import { startApp, type TestApp, type TestStore } from './harness.ts';

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

/** A search signal's tests' settings that leave it alone: no speaker bonus, questions keep their place. */
export const SIGNAL_ALONE = { SEARCH_WEIGHT_ASKS: '0', SEARCH_WEIGHT_SPEAKER: '0', SEARCH_WEIGHT_SPEAKER_MANY: '0' };

/**
 * Two apps over fresh `store`s for a search signal's tests, started before and closed after the
 * enclosing suite: `on` with `setting` at `value`, `off` with it at 0, both with `env` besides.
 */
export function signalOnAndOff(store: TestStore, setting: string, value: string, env: Record<string, string> = {}) {
  const apps = {} as { on: TestApp; off: TestApp };
  before(async () => {
    apps.on = await startApp(store, { env: { ...env, [setting]: value } });
    apps.off = await startApp(store, { env: { ...env, [setting]: '0' } });
  });
  after(async () => {
    await apps.on.close();
    await apps.off.close();
  });
  return apps;
}
