// Types of run-tests.mjs (plain JS so that the test processes it starts inherit no TypeScript loader).
export function longestFirst(files: string[], seconds: Record<string, number>): string[];
export function pinImportMeta(source: string, file: string): string;
export function compileTests(files: string[], outDir: string): Promise<Map<string, string>>;
