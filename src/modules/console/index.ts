/**
 * The web console (docs/console.md): a static single-page app served at /console that talks to
 * the public HTTP API with the user's own key. The module only serves the built files.
 */
import path from 'node:path';
import { ROOT_DIR } from '../../platform/root.ts';
import { consoleRoutes } from './console.routes.ts';

export function createConsoleModule(deps: { oauth: boolean; root?: string }) {
  return { routes: consoleRoutes({ oauth: deps.oauth, root: deps.root ?? path.join(ROOT_DIR, 'dist', 'console') }) };
}
