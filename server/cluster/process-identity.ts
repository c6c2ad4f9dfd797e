/**
 * Telling at once, on this host, whether a process that registered in `nodes` is still running: the
 * same pid in the same pid namespace of the same boot, started at the same moment. Where /proc is not
 * there to say (or the process ran elsewhere), only its heartbeat can tell.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

function read(path: string, how: (p: string) => string): string {
  try {
    return how(path).trim();
  } catch {
    return '';
  }
}

/** Start time of a process in clock ticks since boot (field 22 of /proc/<pid>/stat), 0 when unknown. */
export function processStart(pid: number): number {
  const stat = read(`/proc/${pid}/stat`, (p) => readFileSync(p, 'utf8'));
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[19] ?? 0) || 0;
}

/** Where pids of this process's kind are comparable; '' when they cannot be compared. */
export function processScope(): string {
  const boot = read('/proc/sys/kernel/random/boot_id', (p) => readFileSync(p, 'utf8'));
  const pidNamespace = read('/proc/self/ns/pid', readlinkSync);
  return boot && pidNamespace ? `${hostname()}|${boot}|${pidNamespace}` : '';
}

export const SELF = { scope: processScope(), pid: process.pid, pidStart: processStart(process.pid) };

/** True only when the process is known to be gone (never for one that ran elsewhere). */
export function knownGone(scope: string, pid: number, pidStart: number): boolean {
  if (scope === '' || scope !== SELF.scope || pidStart === 0) return false;
  return processStart(pid) !== pidStart;
}
