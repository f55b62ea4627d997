// Types of launch.mjs (plain JS: it runs before anything is compiled).
export const MALLOC_ENV: { GLIBC_TUNABLES: string };
export const NODE_FLAGS: string[];
export function relaunchWithMallocEnv(): boolean;
