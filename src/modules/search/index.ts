/**
 * Search: hybrid retrieval over a user's memories (BM25, dense signals, the graph, session
 * neighbours) fused by normalised score, with every scope and ACL filter in the SQL
 * (docs/retrieval.md).
 */
import { searchRoutes } from './search.routes.ts';
import { createSearchService, type SearchDeps } from './search.service.ts';

export function createSearchModule(deps: SearchDeps) {
  const service = createSearchService(deps);
  return {
    service,
    routes: searchRoutes(service),
    /** Waits for the query-log writes in flight (before the store closes). */
    close: () => service.close(),
  };
}
export type SearchModule = ReturnType<typeof createSearchModule>;
export type { SearchDeps } from './search.service.ts';
/** The query log: a search by its search_id (feedback, sync). */
export { findLoggedSearch, type LoggedSearch } from './search.store.ts';
export { prepareVectorStore } from './vector-store.ts';
export { countStaleVectors, reembedStale } from './reembed.ts';
export {
  committedRanker,
  linearRanker,
  rankerSet,
  type LinearRanker,
  type RankerFile,
  type RankerModel,
  type RankerSet,
} from './ranker.ts';
export { FEATURE_NAMES } from './features.ts';
export type { GraphRerankPort } from './rerank-stage.ts';
/** The feedback signal's port (implemented by the feedback module, passed in by the app). */
export { applyBoosts, type FeedbackBoosts, type FeedbackScope } from './feedback-signal.ts';
