/**
 * Memory of benchmark processes, from /proc (Linux): a process's peak resident set (VmHWM)
 * and the resident sets of a process tree sampled over time. getrusage's maxRSS
 * (process.resourceUsage) is no good for either: Linux carries it over exec, so a child
 * reports its parent's peak when its own is lower, and it says nothing about other processes.
 */
import * as fs from 'fs';

/** A field of /proc/<pid>/status in MB (VmHWM: peak resident set; VmRSS: now), null when the process is gone. */
export function procMemoryMb(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number | null {
  try {
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Peak RSS of this process alone, in MB. */
export function peakRssMb(): number {
  return procMemoryMb('self', 'VmHWM') ?? process.resourceUsage().maxRSS / 1024;
}

/** The processes below `root` (children, their children, ...). */
export function descendants(root: number): number[] {
  const parent = new Map<number, number>();
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      // "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ')'
      const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // gone meanwhile
    }
  }
  const out: number[] = [];
  const todo = [root];
  while (todo.length) {
    const p = todo.pop()!;
    for (const [child, pp] of parent)
      if (pp === p) {
        out.push(child);
        todo.push(child);
      }
  }
  return out;
}

export interface TreeMemory {
  /** Highest sum of the resident sets of this process and its descendants seen at one sample, MB. */
  peakTotalMb: number;
  /** Each process's own peak (VmHWM, last seen), MB, this process first. */
  peaks: { pid: number; mb: number }[];
}

/** Samples this process and its descendants every `ms` until `stop()`. */
export function sampleTreeMemory(ms = 100): { stop(): TreeMemory } {
  let peakTotalMb = 0;
  const peaks = new Map<number, number>();
  const sample = () => {
    let total = 0;
    for (const pid of [process.pid, ...descendants(process.pid)]) {
      total += procMemoryMb(pid, 'VmRSS') ?? 0;
      const hwm = procMemoryMb(pid, 'VmHWM');
      if (hwm !== null) peaks.set(pid, Math.max(peaks.get(pid) ?? 0, hwm));
    }
    peakTotalMb = Math.max(peakTotalMb, total);
  };
  sample();
  const timer = setInterval(sample, ms);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return { peakTotalMb, peaks: [...peaks].map(([pid, mb]) => ({ pid, mb })) };
    },
  };
}

/** CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat; null when it is gone. */
export function procCpuSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields 14 and 15 of stat (utime, stime), counted from the state field (3)
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}
