/**
 * Load generation from a second process: wrk when installed (Debian package), else autocannon.
 * Both report requests/s and p50/p99 latency in milliseconds.
 */
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fixed body, or a Lua expression of `n` (a per-thread counter) for wrk / a function for autocannon. */
  body?: string;
  /** Makes each request's body unique: `%n` in `body` is replaced with a per-request counter. */
  uniqueBodies?: boolean;
  connections?: number;
  seconds?: number;
  /** Stops after this many responses (then `seconds` is only a cap; with wrk, a few in flight may land after). */
  requests?: number;
  /**
   * Seconds of the same load first, not measured: a service just started compiles its hot paths and sizes its heap
   * during its first second of load, which is start-up cost, not the steady state the figures describe.
   */
  warmupSeconds?: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Responses received. */
  completed: number;
  tool: 'wrk' | 'autocannon';
}

const run = promisify(execFile);

export const hasWrk = (() => {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk prints its version and exits 1; only a missing binary throws ENOENT.
    return (error as NodeJS.ErrnoException).code !== 'ENOENT';
  }
})();

export async function load(spec: LoadSpec): Promise<LoadResult> {
  const { warmupSeconds, ...measured } = spec;
  if (warmupSeconds) await loadOnce({ ...measured, seconds: warmupSeconds, requests: undefined });
  return loadOnce(measured);
}

function loadOnce(spec: LoadSpec): Promise<LoadResult> {
  return hasWrk ? wrk(spec) : autocannon(spec);
}

async function wrk(spec: LoadSpec): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-wrk-'));
  const script = join(dir, 'request.lua');
  const headers = { 'content-type': 'application/json', ...spec.headers };
  const headerLines = Object.entries(headers).map(([k, v]) => `wrk.headers[${JSON.stringify(k)}] = ${JSON.stringify(v)}`);
  const body = spec.body ?? '';
  const lua = [
    `wrk.method = ${JSON.stringify(spec.method ?? 'GET')}`,
    ...headerLines,
    spec.uniqueBodies
      ? // Each wrk thread gets its own Lua state; a random prefix keeps threads apart.
        `local n = 0\nlocal prefix = tostring(math.random(1, 1e9))\nrequest = function()\n  n = n + 1\n  local b = string.gsub(${JSON.stringify(body)}, "%%n", prefix .. "-" .. n)\n  return wrk.format(nil, nil, nil, b)\nend`
      : `wrk.body = ${JSON.stringify(body)}`,
    // One thread (-t 1), so one counter sees every response. Stopping the thread does not end wrk (its main
    // thread sleeps out -d): the thread says so on stdout and wrkUntilDone interrupts that sleep.
    ...(spec.requests
      ? [`local done = 0\nresponse = function()\n  done = done + 1\n  if done == ${spec.requests} then\n    io.write("${DONE_LINE}\\n")\n    io.flush()\n    wrk.thread:stop()\n  end\nend`]
      : []),
  ];
  writeFileSync(script, lua.join('\n'));
  const args = ['-t', '1', '-c', String(spec.connections ?? 50), '-d', `${spec.seconds ?? 5}s`, '--latency', '-s', script, spec.url];
  const stdout = await (spec.requests ? wrkUntilDone(args) : run('wrk', args, { maxBuffer: 1 << 20 }).then((r) => r.stdout)).finally(() => rmSync(dir, { recursive: true, force: true }));
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(stdout)?.[1] ?? 0);
  const non2xx = /Non-2xx or 3xx responses: (\d+)/.exec(stdout);
  if (non2xx) throw new Error(`wrk: ${non2xx[1]} non-2xx responses from ${spec.url}`);
  const completed = Number(/(\d+) requests in/.exec(stdout)?.[1] ?? 0);
  return { rps, p50: latency(stdout, '50%'), p99: latency(stdout, '99%'), completed, tool: 'wrk' };
}

const DONE_LINE = 'flowsvc-bench: requests done';

/** Runs wrk and sends it SIGINT once its script prints DONE_LINE: wrk then stops sleeping and prints its summary. */
function wrkUntilDone(args: string[]): Promise<string> {
  const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let stdout = '';
  child.stdout.on('data', (bytes) => {
    stdout += bytes;
    if (stdout.includes(DONE_LINE)) child.kill('SIGINT');
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => (code === 0 || signal === 'SIGINT' ? resolve(stdout) : reject(new Error(`wrk exited with ${code ?? signal}: ${stdout}`))));
  });
}

function latency(output: string, percentile: string): number {
  const match = new RegExp(`${percentile}\\s+([\\d.]+)(us|ms|s)`).exec(output);
  if (!match) return NaN;
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

async function autocannon(spec: LoadSpec): Promise<LoadResult> {
  const autocannonRun = (await import('autocannon')).default;
  let n = 0;
  const body = spec.body ?? '';
  const result = await autocannonRun({
    url: spec.url,
    method: spec.method ?? 'GET',
    connections: spec.connections ?? 50,
    duration: spec.seconds ?? 5,
    ...(spec.requests ? { amount: spec.requests } : {}),
    headers: { 'content-type': 'application/json', ...spec.headers },
    ...(spec.uniqueBodies
      ? { requests: [{ setupRequest: (req: import('autocannon').Request) => ({ ...req, body: body.replace('%n', String(++n)) }) }] }
      : { body }),
  });
  if (result.non2xx > 0) throw new Error(`autocannon: ${result.non2xx} non-2xx responses from ${spec.url}`);
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, completed: result.requests.total, tool: 'autocannon' };
}
