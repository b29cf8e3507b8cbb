/**
 * Spawns the flowsvc CLI as a child process, as users run it: the launcher (bin/flowsvc.js) and the build in dist/,
 * brought up to date here once per test file (scripts/build-if-changed.mjs, a fingerprint check when nothing
 * changed). Through the tests' TypeScript loader each child took a minute to start on a loaded machine.
 */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from '../../scripts/build-if-changed.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const launcher = fileURLToPath(new URL('../../bin/flowsvc.js', import.meta.url));
if (!(await buildIfChanged(root, () => {}))) throw new Error('the sources do not compile (npm run build says why)');

/** Laid over this process's environment; a variable given as undefined is left out of the child's. */
export type ChildEnv = Record<string, string | undefined>;

/** `as`: run as another user (a test of what this user may not do, where the tests run as root). */
export function spawnCli(args: string[], env: ChildEnv, as?: { uid: number; gid: number }): ChildProcess {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete childEnv[name];
  const options: SpawnOptions = { env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] };
  if (!as) return spawn(process.execPath, [launcher, ...args], options);
  // tap's process-info hook writes under .tap/ at exit, which another user may not. tap adds it to every child's
  // NODE_OPTIONS, so such a child is started through env(1), which drops it.
  return spawn('env', ['-u', 'NODE_OPTIONS', process.execPath, launcher, ...args], { ...options, ...as });
}

/** Runs the CLI to completion and returns its exit code and output. */
export function runCli(args: string[], env: ChildEnv, as?: { uid: number; gid: number }): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnCli(args, env, as);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/**
 * Starts `flowsvc serve` and resolves with its URL once it prints that it is listening (`startMs`: how long it may
 * take; several started at once on a busy machine each load the TypeScript tree).
 */
export function serveProcess(env: ChildEnv, startMs = 120_000): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const child = spawnCli(['serve'], env);
  let output = '';
  return new Promise((resolve, reject) => {
    // A service that does not start in time is killed: left running, it would outlive the test run.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve did not start:\n${output}`));
    }, startMs);
    child.stderr!.on('data', (d) => (output += d));
    child.stdout!.on('data', (d) => {
      output += d;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1], output: () => output });
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`serve exited with ${code}:\n${output}`));
    });
  });
}
