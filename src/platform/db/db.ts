/**
 * The one SQL interface every store uses. Both implementations speak PostgreSQL (PGlite
 * embedded, or a server through `pg`), so stores write one dialect. Parameters are `$1…`.
 */
export type Row = Record<string, unknown>;

export interface QueryOptions {
  prepared?: boolean;
}

export interface Queryable {
  /**
   * Run one statement and return its rows. `prepared`: PostgreSQL keeps the statement prepared
   * on each connection (named by its text) and plans it once there instead of on every call —
   * for hot statements whose planning costs more than their execution. PGlite ignores it.
   */
  query<T extends object = Row>(sql: string, params?: unknown[], opts?: QueryOptions): Promise<T[]>;
  /** Run a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** Run `fn` in a transaction; it commits when `fn` resolves and rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** Cheap liveness check for /ready. */
  ping(): Promise<void>;
  /**
   * Subscribe to `NOTIFY channel` (send with `SELECT pg_notify(channel, payload)`, which a
   * transaction delivers on commit). Wake-ups only: a notification can be missed (e.g. while
   * a connection reconnects), so callers also poll. After a reconnection each subscriber is
   * called once with an empty payload. Resolves to the unsubscribe function.
   */
  listen(channel: string, fn: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * Settings of every session on both stores. `hnsw.iterative_scan`: an HNSW scan with a filter
 * (one user's chunks) otherwise returns at most `hnsw.ef_search` (40) rows before filtering,
 * so when the planner picks the HNSW index for a small user on a small store that user got
 * fewer candidates than asked for (39 of 100, seen by bench:messages on one LoCoMo
 * conversation); iterative scans go on until the LIMIT is met (pgvector ≥ 0.8, in order).
 */
export const SESSION_SETTINGS = ['hnsw.iterative_scan=strict_order'];

/** pgvector literal for a JS vector. */
export function toVector(v: readonly number[]): string {
  return `[${v.join(',')}]`;
}

/**
 * `rows` in the order of `ids`, skipping ids without a row: a multi-row INSERT … RETURNING
 * or a `WHERE id = ANY(…)` does not promise any order.
 */
export function inOrderOf<T extends { id: string }>(rows: T[], ids: string[]): T[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => byId.get(id)).filter((r): r is T => r !== undefined);
}
