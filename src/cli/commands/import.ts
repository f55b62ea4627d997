/** `engram import <path>`: a file or folder into memories, in resumable chunks (src/cli/import/). */
import { SingleBar, Presets } from 'cli-progress';
import type { Command } from 'commander';
import fs from 'node:fs';
import { PartialError, UsageError, emit, isJson, targetOf } from '../context.ts';
import {
  defaultCheckpointPath,
  fileIdOf,
  readCheckpoint,
  writeCheckpoint,
  type Checkpoint,
} from '../import/checkpoint.ts';
import { FORMATS, detectFormat, readItems, type ImportFormat } from '../import/readers.ts';
import { runImport } from '../import/run.ts';

interface ImportOptions {
  format?: ImportFormat;
  user?: string;
  namespace?: string;
  checkpoint?: string;
  chunkSize: number;
  contentColumn: string;
  byHeading?: boolean;
  restart?: boolean;
}

export function registerImportCommand(program: Command): void {
  program
    .command('import')
    .description('Import memories from JSONL, CSV, a Markdown folder, an OMO file or a mem0 export (resumable)')
    .argument('<path>', 'file or folder to import')
    .option('--format <format>', `one of ${FORMATS.join(', ')} (default: from the name and content)`)
    .option('--user <id>', 'external_user_id of the items that name none')
    .option('--namespace <id>', 'namespace_id of the items that name none')
    .option('--checkpoint <file>', 'checkpoint file (default: <path>.engram-import.json beside the input)')
    .option('--chunk-size <n>', 'items per request, 1-1000', (v) => Number.parseInt(v, 10), 500)
    .option('--content-column <name>', 'CSV: the column holding the text', 'content')
    .option('--by-heading', 'Markdown: one memory per heading section instead of per file')
    .option('--restart', 'ignore an existing checkpoint and start over')
    .action(async (input: string, o: ImportOptions, cmd: Command) => {
      if (!fs.existsSync(input)) throw new UsageError(`${input}: no such file or folder`);
      if (o.format && !FORMATS.includes(o.format))
        throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
      if (!(o.chunkSize >= 1 && o.chunkSize <= 1000)) throw new UsageError('--chunk-size must be 1-1000');
      const format = o.format ?? detectFormat(input);
      const items = readItems(input, format, { contentColumn: o.contentColumn, byHeading: o.byHeading });
      const checkpointPath = o.checkpoint ?? defaultCheckpointPath(input);
      const fileId = fileIdOf(input);
      const earlier = o.restart ? null : readCheckpoint(checkpointPath);
      if (earlier && earlier.file_id !== fileId)
        throw new UsageError(`${checkpointPath} belongs to another version of the input; pass --restart to start over`);
      const cp: Checkpoint = earlier ?? {
        version: 1,
        file_id: fileId,
        format,
        chunk_size: o.chunkSize,
        total: items.length,
        acknowledged: 0,
        imported: 0,
        refused: 0,
        skipped: 0,
        errors: [],
        updated_at: '',
      };
      if (!earlier) writeCheckpoint(checkpointPath, cp);
      const resumedFrom = cp.acknowledged;
      // The bar goes to stderr, only for a person watching: not in pipes, logs or --json runs.
      const bar =
        process.stderr.isTTY && !isJson(cmd)
          ? new SingleBar(
              { format: ' {bar} {value}/{total} | {rate} items/s | ETA {eta_formatted}', stream: process.stderr },
              Presets.shades_classic,
            )
          : null;
      const t0 = performance.now();
      const rate = (done: number) => (done - resumedFrom) / Math.max((performance.now() - t0) / 1000, 0.001);
      bar?.start(items.length, resumedFrom, { rate: '0' });
      try {
        await runImport({
          target: { ...targetOf(cmd), timeoutMs: 600_000 },
          items,
          omo: format === 'omo',
          checkpoint: cp,
          checkpointPath,
          resumed: earlier !== null,
          defaults: { external_user_id: o.user, namespace_id: o.namespace },
          onProgress: (done) => bar?.update(done, { rate: rate(done).toFixed(1) }),
        });
      } finally {
        bar?.stop();
      }
      const seconds = (performance.now() - t0) / 1000;
      const summary = {
        format,
        total: items.length,
        imported: cp.imported,
        skipped: cp.skipped,
        refused: cp.refused,
        resumed_from: resumedFrom,
        seconds: Number(seconds.toFixed(3)),
        items_per_second: Number(rate(cp.acknowledged).toFixed(1)),
        checkpoint: checkpointPath,
        errors: cp.errors,
      };
      emit(cmd, summary, () =>
        [
          `${format}: ${cp.imported} imported, ${cp.skipped} already there, ${cp.refused} refused of ${items.length}` +
            ` in ${seconds.toFixed(1)} s (${summary.items_per_second} items/s)` +
            (resumedFrom ? `, resumed at ${resumedFrom}` : ''),
          ...cp.errors.slice(0, 10).map((e) => `  item ${e.index}: ${e.error}`),
        ].join('\n'),
      );
      if (cp.refused > 0) throw new PartialError(`engram: ${cp.refused} of ${items.length} items were refused`);
    });
}
