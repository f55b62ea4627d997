// Types of build.mjs (plain JS so that `npm start` runs without a TypeScript loader).
export const ENTRIES: (string | { in: string; out: string })[];
export const SERVER_BUILD: {
  entryPoints: (string | { in: string; out: string })[];
  bundle: boolean;
  splitting: boolean;
  format: 'esm';
  platform: 'node';
  target: string;
  packages: 'external';
};
export function isStale(): boolean;
export function buildServer(): number;
export function ensureBuilt(): number;
export function buildConsole(): void;
