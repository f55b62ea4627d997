/** add, search, get, delete: one memory at a time (POST/GET/DELETE /v1/memory…, POST /v1/memory/search). */
import type { Command } from 'commander';
import { engramRequest } from '../../client/http.ts';
import { emit, jsonObject, targetOf } from '../context.ts';

interface MemoryView {
  id: string;
  content: string;
  external_user_id?: string | null;
  namespace_id?: string | null;
  createdAt?: string;
  metadata?: Record<string, unknown> | null;
  similarity_score?: number | null;
}
interface MemoriesEnvelope {
  data: { memories: MemoryView[] };
}

const line = (m: MemoryView) =>
  `${m.id}${m.similarity_score != null ? `  (${m.similarity_score.toFixed(3)})` : ''}\n  ${m.content.replace(/\n/g, '\n  ')}`;

export function registerMemoryCommands(program: Command): void {
  program
    .command('add')
    .description('Store one memory')
    .argument('<content>', 'the text to remember')
    .option('--user <id>', 'external_user_id the memory belongs to')
    .option('--namespace <id>', 'namespace_id to store it in')
    .option('--metadata <json>', 'metadata, a JSON object')
    .action(async (content: string, o: { user?: string; namespace?: string; metadata?: string }, cmd: Command) => {
      const res = await engramRequest<{ data: { memoryId: string; createdAt?: string }[] }>(
        targetOf(cmd),
        'POST',
        '/v1/memory',
        {
          body: {
            content,
            external_user_id: o.user,
            namespace_id: o.namespace,
            metadata: jsonObject(o.metadata, '--metadata'),
          },
        },
      );
      const item = res.data[0];
      emit(cmd, { id: item.memoryId, createdAt: item.createdAt }, () => item.memoryId);
    });

  program
    .command('search')
    .description('Search memories')
    .argument('<query>', 'what to look for')
    .option('--user <id>', 'only this external_user_id')
    .option('--namespace <id>', 'only this namespace_id')
    .option('--max <n>', 'at most n memories (1-200)', (v) => Number.parseInt(v, 10), 10)
    .action(async (query: string, o: { user?: string; namespace?: string; max: number }, cmd: Command) => {
      const res = await engramRequest<MemoriesEnvelope>(targetOf(cmd), 'POST', '/v1/memory/search', {
        body: { query, external_user_id: o.user, namespace_id: o.namespace, max_memories: o.max },
      });
      const memories = res.data.memories;
      emit(cmd, { memories }, () => (memories.length ? memories.map(line).join('\n') : 'no memories found'));
    });

  program
    .command('get')
    .description('Show one memory')
    .argument('<id>', 'memory id')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      const res = await engramRequest<MemoriesEnvelope>(targetOf(cmd), 'GET', `/v1/memory/${encodeURIComponent(id)}`);
      const m = res.data.memories[0];
      emit(cmd, m, () =>
        [
          line(m),
          `  user: ${m.external_user_id ?? '-'}  namespace: ${m.namespace_id ?? '-'}  created: ${m.createdAt ?? '-'}`,
          m.metadata && Object.keys(m.metadata).length ? `  metadata: ${JSON.stringify(m.metadata)}` : '',
        ]
          .filter(Boolean)
          .join('\n'),
      );
    });

  program
    .command('delete')
    .description('Delete one memory')
    .argument('<id>', 'memory id')
    .action(async (id: string, _o: unknown, cmd: Command) => {
      await engramRequest(targetOf(cmd), 'DELETE', `/v1/memory/${encodeURIComponent(id)}`);
      emit(cmd, { id, deleted: true }, () => `deleted ${id}`);
    });
}
