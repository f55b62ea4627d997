#!/usr/bin/env node
/**
 * The `engram` command line (docs/cli.md): a client of an Engram server by URL and key, through
 * src/client/http.ts only, plus `serve`, which runs the server itself. Exit codes: 0 ok, 1 API or
 * usage error, 2 bad usage (the parser's), 3 server unreachable, 4 partial (some items refused),
 * 130 interrupted.
 */
import { Command, CommanderError, Option } from 'commander';
import { registerAdminCommands } from './commands/admin.ts';
import { registerDocumentCommands } from './commands/documents.ts';
import { registerExportCommand } from './commands/export.ts';
import { registerImportCommand } from './commands/import.ts';
import { registerMemoryCommands } from './commands/memory.ts';
import { registerServeCommand } from './commands/serve.ts';
import { registerStatusCommand } from './commands/status.ts';
import { EXIT, failure, targetOf } from './context.ts';

export function buildProgram(): Command {
  const program = new Command('engram')
    .description('Engram memory service: run it, and use one from the command line')
    .version(process.env.npm_package_version ?? '0.1.0')
    .addOption(new Option('--url <url>', 'server base URL').env('ENGRAM_URL'))
    .addOption(new Option('--api-key <key>', 'API key (X-API-Key)').env('ENGRAM_API_KEY'))
    .addOption(new Option('--token <token>', 'OAuth access token (Authorization: Bearer)').env('ENGRAM_TOKEN'))
    .option('--json', 'print one JSON document (for scripts) instead of human text')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerMemoryCommands(program);
  registerImportCommand(program);
  registerExportCommand(program);
  registerDocumentCommands(program);
  registerAdminCommands(program);
  registerStatusCommand(program);
  program
    .command('mcp')
    .description('run an MCP server on stdio for desktop clients, bridging to the server (docs/mcp.md)')
    .action(async (_o: unknown, cmd: Command) => {
      // Loaded here: the MCP SDK is not needed by any other command.
      await (await import('./mcp-stdio.ts')).runMcpStdio(targetOf(cmd));
    });
  for (const c of program.commands) c.exitOverride();
  program.hook('preAction', (_p, action) => {
    // `serve` hands signals to the server's own shutdown; everything else stops at once (the
    // import's checkpoint is written atomically, so nothing is half done).
    if (action.name() !== 'serve') process.once('SIGINT', () => process.exit(EXIT.interrupted));
  });
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return EXIT.ok;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? EXIT.ok : EXIT.usage;
    const f = failure(err);
    process.stderr.write(f.message + '\n');
    return f.code;
  }
}

// A closed pipe (`engram export | head`) ends the output, not with a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(EXIT.ok);
  throw err;
});
process.exitCode = await main(process.argv);
