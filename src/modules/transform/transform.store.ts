/** Memories' graph-transform artifacts (memory_transforms, migration 0020): the SQL of stored artifacts. */
import type { Queryable } from '../../platform/db/index.ts';
import type { Artifact } from './artifact.ts';

interface ArtifactRow {
  memory_id: string;
  domain_id: string;
  signal_embedder: string;
  signals: Record<string, string>;
  phases: number[];
  base: Uint8Array;
  base_scale: number;
  bands: Uint8Array;
  band_scales: number[];
  band_dims: number;
}

const int8 = (b: Uint8Array) => new Int8Array(b.buffer, b.byteOffset, b.byteLength);
const bytes = (q: Int8Array) => new Uint8Array(q.buffer, q.byteOffset, q.byteLength);

/** Store (or replace: a job that runs again after a crash writes the same row) a memory's artifact. */
export async function putMemoryArtifact(
  q: Queryable,
  row: { memoryId: string; organizationId: string; bandExtractor: string },
  a: Artifact,
): Promise<void> {
  const dims = a.bands[0]?.q.length ?? 0;
  const bands = new Uint8Array(dims * a.bands.length);
  a.bands.forEach((b, k) => bands.set(bytes(b.q), k * dims));
  await q.query(
    `INSERT INTO memory_transforms (memory_id, organization_id, domain_id, signal_embedder, band_extractor, signals,
       phases, base, base_scale, bands, band_scales, band_dims)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8, $9, $10, $11::jsonb, $12)
     ON CONFLICT (memory_id) DO UPDATE SET domain_id = EXCLUDED.domain_id, signal_embedder = EXCLUDED.signal_embedder,
       band_extractor = EXCLUDED.band_extractor, signals = EXCLUDED.signals, phases = EXCLUDED.phases,
       base = EXCLUDED.base, base_scale = EXCLUDED.base_scale, bands = EXCLUDED.bands,
       band_scales = EXCLUDED.band_scales, band_dims = EXCLUDED.band_dims, created_at = now()`,
    [
      row.memoryId,
      row.organizationId,
      a.domainId,
      a.signalEmbedder,
      row.bandExtractor,
      JSON.stringify(a.signals),
      JSON.stringify(a.phases),
      bytes(a.base.q),
      a.base.scale,
      bands,
      JSON.stringify(a.bands.map((b) => b.scale)),
      dims,
    ],
  );
}

/** Artifacts of `memoryIds` in the organization, by memory id (memories without one are absent). */
export async function memoryArtifacts(
  q: Queryable,
  organizationId: string,
  memoryIds: string[],
): Promise<Map<string, Artifact>> {
  if (!memoryIds.length) return new Map();
  const rows = await q.query<ArtifactRow>(
    `SELECT memory_id, domain_id, signal_embedder, signals, phases, base, base_scale, bands, band_scales, band_dims
       FROM memory_transforms WHERE organization_id = $1 AND memory_id = ANY($2::text[])`,
    [organizationId, memoryIds],
  );
  return new Map(
    rows.map((r) => {
      const all = int8(r.bands);
      return [
        r.memory_id,
        {
          domainId: r.domain_id,
          signalEmbedder: r.signal_embedder,
          signals: r.signals,
          phases: r.phases,
          base: { q: Int8Array.from(int8(r.base)), scale: r.base_scale },
          bands: r.band_scales.map((scale, k) => ({ q: all.slice(k * r.band_dims, (k + 1) * r.band_dims), scale })),
        },
      ];
    }),
  );
}
