/**
 * Write the API's OpenAPI document, exactly as GET /openapi.json serves it, to docs/openapi.json:
 *   npm run openapi
 * test/openapi.test.ts generates it the same way and fails when the committed file differs.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { migrate } from '../src/platform/db/index.ts';
import { openPglite } from '../src/platform/db/pglite.ts';
import { createLogger } from '../src/platform/log.ts';
import { embeddersFromConfig } from '../src/platform/models/index.ts';

/** Where the committed document lives. */
export const OPENAPI_PATH = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/openapi.json');

/**
 * The document of a server with the default configuration: built by `buildApp`, as the server
 * builds it, over an in-memory PGlite store, and read through GET /openapi.json. The
 * configuration is fixed here, not read from this process's environment, so the document does
 * not depend on who generates it (the admin API, mounted only with ADMIN_API_KEY, is not in it).
 * The embedding models are built but not warmed up: nothing in the document depends on them,
 * and loading them would only cost time (and write converted word vectors to DATA_DIR).
 */
export async function generateOpenApi(): Promise<Record<string, unknown>> {
  const config = loadConfig({ LOG_LEVEL: 'silent', EMBEDDER_THREADS: 'false' });
  const log = createLogger('silent');
  const db = await openPglite();
  try {
    await migrate(db);
    const models = embeddersFromConfig(config);
    const app = await buildApp({ config, db, log, models: { ...models, load: async () => {} } });
    try {
      const res = await app.inject({ method: 'GET', url: '/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`GET /openapi.json answered ${res.statusCode}: ${res.body}`);
      return res.json();
    } finally {
      await app.close();
      await models.close();
    }
  } finally {
    await db.close();
  }
}

/** The file's text: 2-space JSON, keys in generation order, a final newline. */
export function formatOpenApi(doc: unknown): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  fs.writeFileSync(OPENAPI_PATH, formatOpenApi(await generateOpenApi()));
  console.log(`wrote ${path.relative(process.cwd(), OPENAPI_PATH)}`);
}
