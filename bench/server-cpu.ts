import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat (fields 14 and 15, counted after the
 * parenthesized command name, which may hold spaces); undefined without a pid or off Linux.
 */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}
