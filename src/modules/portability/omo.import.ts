/**
 * POST /v1/omo/import: each object checked and mapped on its own (omo.mapping.ts, omo.acl.ts),
 * duplicates skipped, the rest stored in groups through the memories module's writer — one
 * embedder call and one transaction per group, so an object is stored whole or not at all.
 */
import { isEndUser, requireOwnOrganization, requirePermission, type Actor } from '../../shared/actor.ts';
import { AppError } from '../../shared/errors.ts';
import type { PreparedMemory } from '../memories/index.ts';
import { requireSelf } from '../users/index.ts';
import { omoIntake, type MappedObject } from './omo.intake.ts';
import type { ImportBody } from './omo.schemas.ts';
import type { OmoDeps } from './omo.service.ts';
import { findDuplicates } from './omo.store.ts';

/** Objects embedded and committed together. */
const GROUP = 50;

export interface ImportOutcome {
  index: number;
  omo_id: string | null;
  status: 'imported' | 'skipped' | 'error';
  memory_id?: string;
  error?: string;
  code?: number;
  details?: unknown;
}

/** An object that passed its checks, with its position in the request. */
type Candidate = MappedObject & { index: number };

const failed = (index: number, omoId: string | null, e: AppError): ImportOutcome => ({
  index,
  omo_id: omoId,
  status: 'error',
  error: e.message,
  code: e.code,
  ...(e.details ? { details: e.details } : {}),
});

export function createOmoImport(deps: OmoDeps) {
  const { db, users, writer } = deps;

  /** Check and map every object; the refused ones get their outcome now. */
  async function candidates(actor: Actor, body: ImportBody, out: ImportOutcome[]): Promise<Candidate[]> {
    const map = await omoIntake({ db, users, namespaces: deps.namespaces }, actor, body);
    const kept: Candidate[] = [];
    for (const [index, raw] of body.memories.entries()) {
      const m = await map(raw);
      if (m instanceof AppError) out[index] = failed(index, idOf(raw), m);
      else kept.push({ ...m, index });
    }
    return kept;
  }

  /**
   * Mark duplicates skipped (of stored memories, or of an earlier object of this request, noted
   * in `earlierOf`); the rest go on.
   */
  async function withoutDuplicates(
    actor: Actor,
    items: Candidate[],
    out: ImportOutcome[],
    earlierOf: Map<number, number>,
  ): Promise<Candidate[]> {
    const scope = { organizationId: actor.organizationId, namespaceId: actor.namespaceId };
    const found = await findDuplicates(db, scope, {
      keys: [...new Set(items.flatMap((c) => c.keys))],
      owners: [...new Set(items.flatMap((c) => (c.ownerId ? [c.ownerId] : [])))],
      contents: [...new Set(items.map((c) => c.body.content))],
      ownerOnly: isEndUser(actor) ? actor.userId : undefined,
    });
    const firstOf = new Map<string, number>();
    const kept: Candidate[] = [];
    for (const c of items) {
      const same = found.find(
        (d) =>
          c.keys.includes(d.id) ||
          (d.omo_id !== null && c.keys.includes(d.omo_id)) ||
          (d.user_id === c.ownerId && d.content === c.body.content),
      );
      const marks = [...c.keys.map((k) => `k:${k}`), `c:${c.ownerKey}\u0000${c.body.content}`];
      const earlier = marks.map((m) => firstOf.get(m)).find((i) => i !== undefined);
      if (same || earlier !== undefined) {
        out[c.index] = { index: c.index, omo_id: c.omoId, status: 'skipped', memory_id: same?.id };
        if (!same) earlierOf.set(c.index, earlier!);
        continue;
      }
      for (const m of marks) firstOf.set(m, c.index);
      kept.push(c);
    }
    return kept;
  }

  /** Embed and store one group; a failure of the whole group is each of its objects' error. */
  async function storeGroup(
    actor: Actor,
    group: Candidate[],
    out: ImportOutcome[],
    skipDuplicates: boolean,
  ): Promise<void> {
    try {
      const prepared = await writer.prepareEach(
        actor,
        group.map((c) => c.body),
      );
      // A graph the memory write refuses (its plan) must not cost the memory: stored without it, extracted anew.
      for (const [i, p] of prepared.entries()) {
        if (!(p instanceof AppError) || !group[i].body.policy?.graph) continue;
        const { graph: _, ...policy } = group[i].body.policy;
        [prepared[i]] = await writer.prepareEach(actor, [{ ...group[i].body, policy }]);
      }
      const ready = prepared.flatMap((p, i) => (p instanceof AppError ? [] : [{ p, c: group[i] }]));
      prepared.forEach((p, i) => {
        if (p instanceof AppError) out[group[i].index] = failed(group[i].index, group[i].omoId, p);
      });
      const rows = await db.transaction((tx) =>
        writer.storeAll(
          tx,
          actor,
          ready.map((x): PreparedMemory => x.p),
          // skip_duplicates: false stores every object again, even what the owner already has.
          skipDuplicates ? {} : { dedupe: 'off' },
        ),
      );
      rows.forEach((row, i) => {
        const { index, omoId } = ready[i].c;
        out[index] =
          row instanceof AppError
            ? failed(index, omoId, row)
            : { index, omo_id: omoId, status: row.duplicate ? 'skipped' : 'imported', memory_id: row.id };
      });
    } catch (err) {
      if (!(err instanceof AppError)) deps.log?.error({ err }, 'importing a group of OMO objects failed');
      const e = err instanceof AppError ? err : new AppError(500, 'Storing this group of the import failed');
      for (const c of group) out[c.index] = failed(c.index, c.omoId, e);
    }
  }

  return async function importMemories(actor: Actor, body: ImportBody) {
    requirePermission(actor, 'write');
    requireOwnOrganization(actor, body.organization_id);
    await requireSelf(users, db, actor, { userId: body.user_id, externalUserId: body.external_user_id });
    const out: ImportOutcome[] = new Array<ImportOutcome>(body.memories.length);
    const earlierOf = new Map<number, number>();
    let items = await candidates(actor, body, out);
    if (body.skip_duplicates) items = await withoutDuplicates(actor, items, out, earlierOf);
    for (let g = 0; g < items.length; g += GROUP)
      await storeGroup(actor, items.slice(g, g + GROUP), out, body.skip_duplicates);
    // A duplicate of an earlier object of this request points at what that object became.
    for (const [index, earlier] of earlierOf) out[index].memory_id = out[earlier].memory_id;
    return out;
  };
}

/** The `id` of what was sent as an object, for its outcome (null when it has none). */
function idOf(raw: unknown): string | null {
  const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
  return typeof id === 'string' ? id : null;
}
