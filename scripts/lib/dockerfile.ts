/**
 * A small reader of Dockerfiles for scripts/check-deploy.ts: instructions with their
 * continuation lines joined, grouped by stage, and the shell commands they run. Enough for
 * the checks there (the Dockerfile is ours and simple), not a full parser of the syntax.
 */

export interface Instruction {
  /** Upper-cased keyword: FROM, RUN, COPY, … */
  keyword: string;
  /** Everything after the keyword, continuation lines joined with a space. */
  args: string;
  /** 1-based line of the keyword. */
  line: number;
}

export interface Stage {
  name: string | null;
  instructions: Instruction[];
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let logical = lines[i];
    if (/^\s*(#|$)/.test(logical)) continue; // comments and parser directives
    while (/\\\s*$/.test(logical) && i + 1 < lines.length) {
      i++;
      if (/^\s*#/.test(lines[i])) continue; // comment lines inside a continuation are dropped
      logical = logical.replace(/\\\s*$/, ' ') + lines[i].trim();
    }
    const m = /^\s*(\w+)\s*(.*)$/.exec(logical);
    if (!m) continue;
    const instruction = { keyword: m[1].toUpperCase(), args: m[2].trim(), line: start + 1 };
    if (instruction.keyword === 'FROM') {
      const as = /\s+AS\s+(\S+)\s*$/i.exec(instruction.args);
      stages.push({ name: as ? as[1] : null, instructions: [instruction] });
    } else if (stages.length) stages[stages.length - 1].instructions.push(instruction);
    // ARG before the first FROM belongs to no stage: nothing to check there.
  }
  return stages;
}

/** A RUN/CMD/ENTRYPOINT argument as one shell line (the exec form's JSON array joined). */
export function commandLine(args: string): string {
  const trimmed = args.trim();
  if (trimmed.startsWith('[')) {
    try {
      const words = JSON.parse(trimmed) as unknown;
      if (Array.isArray(words)) return words.map(String).join(' ');
    } catch {
      // not JSON: the shell form after all
    }
  }
  return trimmed;
}

/** `KEY=value` pairs of ENV (both `ENV A=1 B=2` and the legacy `ENV A 1`). */
export function envPairs(args: string): [string, string][] {
  if (!/^\w+=/.test(args)) {
    const m = /^(\w+)\s+(.*)$/.exec(args);
    return m ? [[m[1], m[2]]] : [];
  }
  const pairs: [string, string][] = [];
  for (const m of args.matchAll(/(\w+)=("(?:[^"\\]|\\.)*"|'[^']*'|\S*)/g)) {
    pairs.push([m[1], m[2].replace(/^(["'])(.*)\1$/, '$2')]);
  }
  return pairs;
}

/** The programs a shell line runs with their arguments, split at `&&`, `||`, `;` and `|`. */
export function commands(line: string): string[][] {
  // A quoted word stays one word; quoted code (`node -e "a||b"`) is not split into commands.
  const unquoted = line.replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g, (_, dq?: string, sq?: string) => {
    const inner = dq ?? sq ?? '';
    return /[\s&|;]/.test(inner) ? "''" : inner;
  });
  return unquoted
    .split(/&&|\|\||;|\|/)
    .map((c) => c.trim().split(/\s+/).filter(Boolean))
    .filter((words) => words.length > 0);
}

/** HEALTHCHECK's command: what follows CMD, after the options. */
export function healthcheckCommand(args: string): string | null {
  const m = /(?:^|\s)CMD\s+(.*)$/.exec(args);
  return m ? commandLine(m[1]) : null;
}
