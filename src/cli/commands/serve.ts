/**
 * `engram serve`: the server in this process, exactly as `npm start` runs it (src/main.ts reads
 * its configuration from the environment; the flags here only set it).
 */
import type { Command } from 'commander';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('Run the Engram server in this process (configuration: environment, see README)')
    .option('--port <n>', 'PORT')
    .option('--host <addr>', 'HOST')
    .option('--data-dir <dir>', 'DATA_DIR (the embedded store)')
    .option('--database-url <url>', 'DATABASE_URL (PostgreSQL instead of the embedded store)')
    .action(async (o: { port?: string; host?: string; dataDir?: string; databaseUrl?: string }) => {
      if (o.port) process.env.PORT = o.port;
      if (o.host) process.env.HOST = o.host;
      if (o.dataDir) process.env.DATA_DIR = o.dataDir;
      if (o.databaseUrl) process.env.DATABASE_URL = o.databaseUrl;
      // src/main.ts starts on import and owns SIGINT/SIGTERM from here on.
      await import('../../main.ts');
    });
}
