import { readdirSync, readFileSync } from 'node:fs';

// CPU time of a process from /proc/<pid>/stat (utime + stime, its own threads only: a child's time is not in
// it until the child is reaped), and of its live descendants, counted apart. Linux only.

const CLOCK_TICKS_PER_SECOND = 100;

interface Stat {
  readonly ppid: number;
  readonly cpuMs: number;
}

function statOf(pid: number): Stat | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces: split after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  // After the name: state(3) ppid(4) ... utime(14) stime(15), i.e. offsets 1 and 11, 12 here.
  const ppid = Number(fields[1]);
  const ticks = Number(fields[11]) + Number(fields[12]);
  return { ppid, cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_SECOND };
}

export interface ProcessCpu {
  /** The process's own CPU time, ms. */
  readonly ownMs: number;
  /** Its live descendants' CPU time together (the stdio upstreams), ms. */
  readonly childrenMs: number;
}

export function processCpu(pid: number): ProcessCpu {
  const own = statOf(pid);
  if (own === null) throw new Error(`no process ${pid}`);
  const parents = new Map<number, number>();
  const cpu = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = statOf(Number(entry));
    if (stat === null) continue;
    parents.set(Number(entry), stat.ppid);
    cpu.set(Number(entry), stat.cpuMs);
  }
  const descends = (candidate: number): boolean => {
    for (let at = parents.get(candidate); at !== undefined && at > 1; at = parents.get(at))
      if (at === pid) return true;
    return false;
  };
  let childrenMs = 0;
  for (const [candidate, ms] of cpu) if (candidate !== pid && descends(candidate)) childrenMs += ms;
  return { ownMs: own.cpuMs, childrenMs };
}
