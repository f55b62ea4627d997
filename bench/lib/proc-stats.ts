/**
 * What processes cost while a benchmark runs, read from /proc (Linux): CPU time of a process
 * (all its threads: a server's model threads and PGlite thread are inside it), its resident
 * memory, and how busy the whole machine was, so a number measured beside other work can be
 * read for what it is. Reading these costs microseconds; nothing here runs a command per sample.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc's CPU times (100 almost everywhere; asked once). */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU seconds (user + system) process `pid` has used so far; NaN once it is gone. */
export function cpuSeconds(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS; // fields 14 (utime) and 15 (stime)
  } catch {
    return NaN;
  }
}

/** Resident memory of process `pid` in MB; NaN once it is gone. */
export function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? NaN) / 1024;
  } catch {
    return NaN;
  }
}

/** Busy and total CPU ticks of the whole machine so far (first line of /proc/stat). */
function machineTicks(): { busy: number; total: number } {
  const f = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const total = f.slice(0, 8).reduce((s, x) => s + x, 0); // user … steal (guest time is inside user)
  const idle = f[3] + f[4]; // idle + iowait
  return { busy: total - idle, total };
}

/** What {@link watchProcess} saw between its start and `stop()`. */
export interface ProcessWatch {
  /** CPU used by the process over the window, in cores (1.0 = one core busy the whole time). */
  cores: number;
  peakRssMb: number;
  endRssMb: number;
  /** Share of all the machine's cores that were busy (every process, ours and others'). */
  machineBusy: number;
}

/** Watch process `pid` from now: RSS sampled every `everyMs` for its peak, CPU from start to stop. */
export function watchProcess(pid: number, everyMs = 500): { stop(): ProcessWatch } {
  const t0 = performance.now();
  const cpu0 = cpuSeconds(pid);
  const m0 = machineTicks();
  let peak = rssMb(pid);
  const timer = setInterval(() => (peak = Math.max(peak, rssMb(pid))), everyMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      const end = rssMb(pid);
      const m1 = machineTicks();
      return {
        cores: (cpuSeconds(pid) - cpu0) / ((performance.now() - t0) / 1000),
        peakRssMb: Math.max(peak, end),
        endRssMb: end,
        machineBusy: (m1.busy - m0.busy) / Math.max(1, m1.total - m0.total),
      };
    },
  };
}

/**
 * CPU seconds used so far by each of `pids` (e.g. PostgreSQL backends, from pg_stat_activity);
 * the difference of two readings, pid by pid, is what they used in between (a backend that
 * ended in between is missed, one that started counts from its start).
 */
export function cpuOf(pids: number[]): Map<number, number> {
  return new Map(pids.map((p) => [p, cpuSeconds(p)] as const).filter(([, s]) => Number.isFinite(s)));
}

/** CPU seconds used between two {@link cpuOf} readings, summed over the pids of the later one. */
export function cpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let s = 0;
  for (const [pid, t] of after) s += t - (before.get(pid) ?? 0);
  return s;
}
