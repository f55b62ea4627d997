import type { Db } from '../../platform/db/index.ts';
import type { Logger } from '../../platform/log.ts';
import type { Embedders } from '../../platform/models/index.ts';
import { ensureVectorIndex } from './dense.store.ts';
import { countStaleVectors } from './reembed.ts';

/**
 * Before the API serves searches: the vector indexes of the configured models exist (the
 * default models' come from migration 0013; another model's are created once, here), and a
 * warning names vectors of another model, which search ignores until `npm run reembed`.
 */
export async function prepareVectorStore(db: Db, embedders: Embedders, log: Logger): Promise<void> {
  for (const [slot, e] of [
    ['embedding', embedders.primary],
    ['embedding2', embedders.secondary],
  ] as const) {
    if (e) await ensureVectorIndex(db, slot, e.id, e.dimensions, log);
  }
  const stale = await countStaleVectors(db, embedders);
  if (stale.embedding || stale.embedding2) {
    log.warn(
      { stale },
      'Some stored vectors come from another embedding model; ' +
        'search ignores them in that signal until `npm run reembed` re-embeds them',
    );
  }
}
