/**
 * The checkout's root folder (where package.json, migrations/ and .cache/ are), found the same
 * way from source (this file is src/platform/root.ts) and from the build (bundled into a file
 * directly under dist/).
 */
import { fileURLToPath } from 'node:url';

export const ROOT_DIR = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../' : '../', import.meta.url));
