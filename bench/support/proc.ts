/**
 * What Linux says about a child process: resident memory and file descriptors, read from /proc so the process
 * under test does nothing to report them (no endpoint, no flag the real service would not run with).
 */
import { readdirSync, readFileSync } from 'node:fs';

export interface Memory {
  /** VmRSS: everything resident, in bytes. */
  rss: number;
  /** RssAnon: heap and native allocations (what a leak grows), in bytes. */
  anon: number;
  /** RssFile: mapped files resident (code, and LMDB's map), in bytes. */
  file: number;
}

function statusField(status: string, name: string): number {
  const match = new RegExp(`^${name}:\\s+(\\d+) kB$`, 'm').exec(status);
  if (!match) throw new Error(`/proc status has no ${name}`);
  return Number(match[1]) * 1024;
}

export function memoryOf(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return { rss: statusField(status, 'VmRSS'), anon: statusField(status, 'RssAnon'), file: statusField(status, 'RssFile') };
}

/**
 * Resident bytes of the process's mappings of files whose path ends with `suffix` (LMDB's `data.mdb`: the store is
 * memory-mapped, so stored data read or written shows up in RSS as file-backed pages the kernel can drop).
 */
export function mappedFileRss(pid: number, suffix: string): number {
  let inFile = false;
  let total = 0;
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ /.test(line);
    if (header) inFile = line.trimEnd().endsWith(suffix);
    else if (inFile && line.startsWith('Rss:')) total += Number(/(\d+) kB/.exec(line)?.[1] ?? 0) * 1024;
  }
  return total;
}

/** The soft limit on open files the process runs with (what EMFILE is measured against). */
export function openFilesLimit(pid: number | 'self'): number {
  const limits = readFileSync(`/proc/${pid}/limits`, 'utf8');
  const match = /^Max open files\s+(\d+|unlimited)\s+(\d+|unlimited)/m.exec(limits);
  if (!match) throw new Error('/proc limits has no "Max open files" line');
  return match[1] === 'unlimited' ? Number.MAX_SAFE_INTEGER : Number(match[1]);
}

export function openFiles(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Clock ticks per millisecond of /proc's utime and stime (USER_HZ is 100 on Linux). */
const TICKS_PER_MS = 100 / 1000;

/**
 * CPU time the process used so far (user + system, every thread), in ms; NaN where /proc is not there. `mainThread`:
 * its main thread's alone (not LMDB's writer, GC helpers or the compiler's threads).
 */
export function cpuMsOf(pid: number | undefined, mainThread = false): number {
  try {
    const fields = readFileSync(mainThread ? `/proc/${pid}/task/${pid}/stat` : `/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_MS;
  } catch {
    return Number.NaN;
  }
}

export const mb = (bytes: number) => bytes / 2 ** 20;
export const kb = (bytes: number) => bytes / 2 ** 10;
