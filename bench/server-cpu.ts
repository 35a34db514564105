import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times (USER_HZ): 100 on every Linux the bench runs on. */
const TICKS_PER_SECOND = 100;

/**
 * CPU seconds (user + system) of one process and of its children it has waited for, from /proc/<pid>/stat
 * (utime, stime, cutime, cstime: fields 14 to 17, counted after the parenthesized command name, which may hold
 * spaces); undefined once it is gone.
 */
function ownCpuSeconds(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields.slice(11, 15).reduce((sum, ticks) => sum + Number(ticks), 0) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** The live children of a process, from each of its threads' /proc/<pid>/task/<tid>/children. */
function childrenOf(pid: number): number[] {
  try {
    return readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
      readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
    );
  } catch {
    return [];
  }
}

/**
 * CPU seconds the engine has used so far: the process and every live descendant, each with the children it has
 * reaped (ministack serves DynamoDB and S3 in its one process, but starts a worker process per Lambda function
 * when a deployed stack runs in it: a figure that counted only the first process could miss work). Undefined
 * without a pid or off Linux.
 */
export function processCpuSeconds(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  const own = ownCpuSeconds(pid);
  if (own === undefined) return undefined;
  return childrenOf(pid).reduce((sum, child) => sum + (processCpuSeconds(child) ?? 0), own);
}
