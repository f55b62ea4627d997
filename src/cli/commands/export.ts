/** `engram export`: every readable memory (GET /v1/memory, page by page) as JSONL, plain or as OMO objects. */
import type { Command } from 'commander';
import fs from 'node:fs';
import { engramRequest } from '../../client/http.ts';
import { UsageError, targetOf } from '../context.ts';

interface Page {
  data: { memories: { id: string }[] };
  next_cursor: string | null;
}

export function registerExportCommand(program: Command): void {
  program
    .command('export')
    .description('Export memories as JSONL (memory objects, or Open Memory Objects with --omo)')
    .option('--user <id>', 'only this external_user_id')
    .option('--namespace <id>', 'only this namespace_id')
    .option('--omo', 'write OMO v1 objects (POST /v1/omo/export), importable with `engram import --format omo`')
    .option('-o, --output <file>', 'write to this file instead of stdout')
    .action(async (o: { user?: string; namespace?: string; omo?: boolean; output?: string }, cmd: Command) => {
      const target = targetOf(cmd);
      if (o.output === '') throw new UsageError('--output needs a file name');
      const out = o.output ? fs.createWriteStream(o.output) : process.stdout;
      const write = (line: string) =>
        new Promise<void>((resolve, reject) => out.write(line, (err) => (err ? reject(err) : resolve())));
      let cursor: string | undefined;
      let count = 0;
      do {
        const page = await engramRequest<Page>(target, 'GET', '/v1/memory', {
          query: { external_user_id: o.user, namespace_id: o.namespace, limit: 200, cursor },
        });
        let rows: unknown[] = page.data.memories;
        if (o.omo && rows.length) {
          const ids = page.data.memories.map((m) => m.id);
          rows = (
            await engramRequest<{ memories: unknown[] }>(target, 'POST', '/v1/omo/export', {
              body: { memory_ids: ids },
            })
          ).memories;
        }
        if (rows.length) await write(rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
        count += rows.length;
        cursor = page.next_cursor ?? undefined;
      } while (cursor);
      if (o.output) {
        await new Promise<void>((resolve) => (out as fs.WriteStream).end(resolve));
        process.stderr.write(`exported ${count} memories to ${o.output}\n`);
      }
    });
}
