/** `engram status`: the server's /health and /ready, or the processing status of a batch or an upload. */
import type { Command } from 'commander';
import { engramRequest } from '../../client/http.ts';
import { emit, targetOf } from '../context.ts';

export function registerStatusCommand(program: Command): void {
  program
    .command('status')
    .description('Server health and readiness; with --batch or --document, that processing status')
    .option('--batch <id>', 'status of a memory batch (batch_id of a batch answer)')
    .option('--document <id>', 'status of a document upload (upload_id)')
    .option('--memory <id>', 'processing status of one memory')
    .action(async (o: { batch?: string; document?: string; memory?: string }, cmd: Command) => {
      const target = targetOf(cmd);
      const one = o.batch
        ? `/v1/memory/batch/status/${encodeURIComponent(o.batch)}`
        : o.document
          ? `/v1/document/status/${encodeURIComponent(o.document)}`
          : o.memory
            ? `/v1/memory/status/${encodeURIComponent(o.memory)}`
            : null;
      if (one) {
        const s = await engramRequest<Record<string, unknown>>(target, 'GET', one);
        emit(cmd, s, () =>
          Object.entries(s)
            .filter(([, v]) => v !== null && typeof v !== 'object')
            .map(([k, v]) => `${k}: ${String(v)}`)
            .join('\n'),
        );
        return;
      }
      const health = await engramRequest<{ status: string; version: string }>(target, 'GET', '/health');
      // /ready answers 503 with the same body when the store is down: show it rather than fail.
      const ready = await engramRequest<{ status: string; store: { kind: string; ok: boolean }; search: unknown }>(
        target,
        'GET',
        '/ready',
      ).catch((err: { status?: number; body?: unknown }) => {
        if (err.status === 503 && err.body && typeof err.body === 'object') return err.body as never;
        throw err;
      });
      emit(cmd, { url: target.baseUrl, health, ready }, () =>
        [
          `${target.baseUrl}: ${health.status} (version ${health.version})`,
          `store: ${ready.store.kind} ${ready.store.ok ? 'ok' : 'unreachable'}; ready: ${ready.status}`,
          `search: ${JSON.stringify(ready.search)}`,
        ].join('\n'),
      );
    });
}
