/**
 * An upload's status as the client reads it, with its timeline: the steps stored → parsed →
 * chunked → embedded → graph → completed. The first four are recorded by the job as they
 * happen; the graph step is the memories' own background processing, read from their batch
 * (the upload's id), so it is never out of step with GET /v1/memory/status/batch/{id}.
 */
import type { BatchProgress } from '../memories/index.ts';
import type { Refused, StepState, UploadRow } from './documents.store.ts';

const STEPS = [
  ['stored', 'Stored', 'The file is stored durably, before any processing'],
  ['parsed', 'Parsed', 'Text and structure extracted page by page (OCR for scanned pages and images)'],
  ['chunked', 'Chunked', 'Split into sections by headings and into chunks within the embedder’s budget'],
  ['embedded', 'Embedded', 'Each chunk stored as a searchable memory'],
  ['graph', 'Graph', 'The memories’ background processing: the knowledge graph built from them'],
  ['completed', 'Completed', 'Every memory of the document is processed'],
] as const;

/** Share of the whole pipeline each step stands for, in `progress`. */
const WEIGHTS: Record<string, number> = { parsed: 0.3, chunked: 0.05, embedded: 0.4, graph: 0.25 };

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

function stepView(id: string, label: string, description: string, s: StepState | undefined, totalPages: number | null) {
  const started = s?.started_at ?? null;
  const completed = s?.completed_at ?? null;
  return {
    id,
    label,
    description,
    status: s?.status ?? 'pending',
    started_at: started,
    completed_at: completed,
    duration_ms: started && completed ? Math.max(0, Date.parse(completed) - Date.parse(started)) : null,
    progress: s?.progress ?? (s?.status === 'completed' ? 1 : s ? 0 : null),
    page_id: null,
    error: s?.error ?? null,
    total_pages: id === 'parsed' || id === 'embedded' ? totalPages : null,
  };
}

/** The memories' processing as the `graph` step, once every chunk is stored. */
function graphStep(u: UploadRow, m: BatchProgress): StepState | undefined {
  if (u.status !== 'completed' || !u.steps.embedded?.completed_at) return undefined;
  const done = m.completed + m.failed;
  const finished = done >= m.total;
  return {
    status: finished ? (m.total > 0 && m.failed === m.total ? 'failed' : 'completed') : 'in_progress',
    started_at: u.steps.embedded.completed_at,
    completed_at: finished ? (iso(m.last_finished_at) ?? u.steps.embedded.completed_at) : undefined,
    progress: m.total ? done / m.total : 1,
    error: m.failed ? `${m.failed} of ${m.total} memories failed processing` : undefined,
  };
}

export function statusView(u: UploadRow, memories: BatchProgress, refused: Refused, withTimeline: boolean) {
  const graph = graphStep(u, memories);
  const steps: Record<string, StepState | undefined> = { ...u.steps, graph };
  // Stored chunks done and their memories processed: the document is complete.
  const finished = graph && graph.status !== 'in_progress';
  const status = u.status === 'completed' && !finished ? 'processing' : u.status;
  if (finished)
    steps.completed = { status: 'completed', started_at: graph.completed_at, completed_at: graph.completed_at };
  const progress =
    status === 'completed'
      ? 1
      : Object.entries(WEIGHTS).reduce((sum, [id, w]) => {
          const s = steps[id];
          return sum + w * (s?.status === 'completed' ? 1 : (s?.progress ?? 0));
        }, 0);
  const parsing = steps.parsed?.status === 'in_progress';
  const currentPage = parsing ? Math.round((steps.parsed?.progress ?? 0) * (u.total_pages ?? 0)) : u.pages_done;
  const messages: Record<string, string> = {
    queued: 'Waiting for a worker',
    processing: graph ? 'Building the knowledge graph from the stored chunks' : 'Parsing and storing the document',
    completed: 'Every chunk is stored and processed',
    failed: 'Processing failed',
    cancelled: 'Processing was cancelled',
  };
  const updated = [u.updated_at, memories.last_finished_at].filter(Boolean) as Date[];
  const updatedAt = new Date(Math.max(...updated.map((d) => d.getTime())));
  return {
    upload_id: u.id,
    status,
    progress: Math.round(Math.min(1, progress) * 1000) / 1000,
    current_page: currentPage,
    total_pages: u.total_pages,
    page_id: null,
    message: messages[status],
    error:
      u.error ??
      (refused.first
        ? `${refused.count} chunk(s) refused by the memory write, ` +
          `e.g. chunk ${refused.first.chunk_index}: ${refused.first.error}`
        : null),
    timestamp: updatedAt.toISOString(),
    workflow_type: 'local',
    filename: u.filename,
    format: u.format,
    chunks: { total: u.chunks_total, stored: u.chunks_stored - refused.count, refused: refused.count },
    memories: { total: memories.total, completed: memories.completed, failed: memories.failed },
    skipped_pages: u.skipped_pages,
    ocr_pages: u.ocr_pages,
    ...(withTimeline
      ? {
          timeline: {
            steps: STEPS.map(([id, label, description]) => stepView(id, label, description, steps[id], u.total_pages)),
            total_elapsed_ms: Math.max(0, updatedAt.getTime() - u.created_at.getTime()),
            updated_at: updatedAt.toISOString(),
          },
        }
      : {}),
  };
}
