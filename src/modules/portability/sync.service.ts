/**
 * GET /v1/sync/delta: the change feed of the caller's scope from a cursor (docs/sync.md).
 */
import type { Db } from '../../platform/db/index.ts';
import type { Actor } from '../../shared/actor.ts';
import { AppError, unprocessable } from '../../shared/errors.ts';
import { toMemoryObject, type MemoryObject, type MemoryRow } from '../memories/index.ts';
import type { UserDirectory } from '../users/index.ts';
import { comparePositions, decodeCursor, encodeCursor, positionBefore, type Position } from './cursor.ts';
import { embeddingFields, parseVector, type EmbeddingFields, type EmbeddingFormat } from './embedding.ts';
import { resolveSyncScope, type ScopeSelectors } from './sync.scope.ts';
import {
  feedState,
  liveChanges,
  primaryEmbeddings,
  tombstones,
  type LiveChange,
  type Tombstone,
} from './sync.store.ts';

export interface SyncDeps {
  db: Db;
  users: Pick<UserDirectory, 'get' | 'findByExternalId'>;
  /** Tombstones older than this may have been pruned: an older cursor is answered 410. */
  tombstoneRetentionDays: number;
}

export interface DeltaQuery extends ScopeSelectors {
  cursor?: string;
  limit: number;
  include_embeddings?: boolean;
  embedding_format: EmbeddingFormat;
}

export interface DeltaPage {
  upserts: (MemoryObject & EmbeddingFields)[];
  deletes: { id: string; deleted: true; deleted_at: string }[];
  next_cursor: string;
  has_more: boolean;
}

type Change = { kind: 'upsert'; row: LiveChange; at: Position } | { kind: 'delete'; t: Tombstone; at: Position };

/** The memories of `rows` as the wire shows them, with their primary embedding when asked for. */
export async function withEmbeddings(
  db: Db,
  organizationId: string,
  rows: MemoryRow[],
  format: EmbeddingFormat | null,
): Promise<(MemoryObject & EmbeddingFields)[]> {
  const vectors = format
    ? await primaryEmbeddings(
        db,
        organizationId,
        rows.map((r) => r.id),
      )
    : new Map<string, { vector: string; model: string }>();
  return rows.map((row) => {
    // Feed rows carry their position; it is not part of the memory.
    const { sync_xid: _x, sync_seq: _s, ...memory } = row as Partial<LiveChange> & MemoryRow;
    const v = vectors.get(row.id);
    return {
      ...toMemoryObject(memory),
      ...(v && format ? embeddingFields(parseVector(v.vector), v.model, format) : {}),
    };
  });
}

export function createSyncService(deps: SyncDeps) {
  const { db } = deps;
  return {
    async delta(actor: Actor, q: DeltaQuery): Promise<DeltaPage> {
      const after = q.cursor ? decodeCursor(q.cursor) : null;
      const scope = await resolveSyncScope(deps.users, db, actor, q);
      const { xmin, horizon } = await feedState(db, scope.organizationId);
      if (after && after.xid >= xmin) {
        throw unprocessable(
          'cursor is ahead of this server’s feed (issued by another server?); start again without one',
          {
            field: 'cursor',
          },
        );
      }
      if (after && horizon && comparePositions(after, horizon) < 0) {
        throw new AppError(
          410,
          `cursor is older than the retained deletes (${deps.tombstoneRetentionDays} days): resync from ` +
            'POST /v1/sync/tiers or from the start (no cursor)',
          { field: 'cursor', resync: 'POST /v1/sync/tiers', retention_days: deps.tombstoneRetentionDays },
        );
      }
      // A first sync needs no tombstones: nothing deleted before it was ever in the client's copy.
      const [live, gone] = await Promise.all([
        liveChanges(db, scope, after, xmin, q.limit + 1),
        after ? tombstones(db, scope, after, xmin, q.limit + 1) : Promise.resolve([]),
      ]);
      const pos = (xid: string, seq: string): Position => ({ xid: BigInt(xid), seq: BigInt(seq) });
      const merged: Change[] = [
        ...live.map((row): Change => ({ kind: 'upsert', row, at: pos(row.sync_xid, row.sync_seq) })),
        ...gone.map((t): Change => ({ kind: 'delete', t, at: pos(t.xid, t.seq) })),
      ].sort((a, b) => comparePositions(a.at, b.at));
      const hasMore = merged.length > q.limit;
      const page = merged.slice(0, q.limit);
      // A page that reaches the end of what is final hands out "everything below xmin" as its cursor.
      const next = hasMore ? page[page.length - 1].at : positionBefore(xmin);
      const rows = page.flatMap((c) => (c.kind === 'upsert' ? [c.row] : []));
      const upserted = new Set(rows.map((r) => r.id));
      // A tombstone and a later upsert of one memory in a page (it moved within the scope): the
      // upsert is its state, so the page's upserts and deletes never name the same memory.
      const deletes = new Map<string, Tombstone>();
      for (const c of page) if (c.kind === 'delete' && !upserted.has(c.t.memory_id)) deletes.set(c.t.memory_id, c.t);
      return {
        upserts: await withEmbeddings(db, scope.organizationId, rows, q.include_embeddings ? q.embedding_format : null),
        deletes: [...deletes.values()].map((t) => ({
          id: t.memory_id,
          deleted: true,
          deleted_at: t.deleted_at.toISOString(),
        })),
        next_cursor: encodeCursor(next),
        has_more: hasMore,
      };
    },
  };
}

export type SyncService = ReturnType<typeof createSyncService>;
