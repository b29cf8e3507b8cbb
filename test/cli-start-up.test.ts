/**
 * Start-up mistakes are one line naming the setting and its value, never a stack trace: a bad value is a usage
 * error (exit 2); the machine not being as a setting says (a data dir that is a file or cannot be written, a port
 * in use, a data dir another service holds, a store missing where a key is asked for) exits 1, before anything is
 * created.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { holdsLmdbStore } from '../src/store/lmdb/lmdb-store.js';
import { runCli, serveProcess } from './support/process.js';

type CliResult = Awaited<ReturnType<typeof runCli>>;

function tempDir(t: Test): string {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-start-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** One line on stderr, `flowsvc: ` and the message, no stack, nothing on stdout. */
function oneLine(t: Test, result: CliResult, code: number, message: RegExp, what: string): void {
  t.equal(result.code, code, `${what}: exit ${code}`);
  t.match(result.stderr, /^flowsvc: [^\n]+\n$/, `${what}: one line`);
  t.match(result.stderr, message, `${what}: names the setting and its value`);
  t.notMatch(result.stderr, /^\s+at /m, `${what}: no stack trace`);
  t.equal(result.stdout, '', `${what}: nothing on stdout`);
}

t.test('a bad configuration value stops start-up with one line naming the variable and its value (exit 2)', async (t) => {
  const dir = tempDir(t);
  const [port, bool, secret] = await Promise.all([
    runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: 'not-a-port' }),
    runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_AUTO_LOGIN: 'maybe' }),
    runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_SECRET_KEY: 'short-secret' }),
  ]);
  oneLine(t, port, 2, /^flowsvc: FLOWSVC_PORT=not-a-port is not valid: /, 'a port that is not a number');
  oneLine(t, bool, 2, /^flowsvc: FLOWSVC_AUTO_LOGIN=maybe is not valid: /, 'a boolean that is not one');
  oneLine(t, secret, 2, /^flowsvc: FLOWSVC_SECRET_KEY \(12 characters, not shown\) is not valid/, 'a secret');
  t.notMatch(secret.stderr, /short-secret/, 'a secret is never printed');
});

t.test('a data dir or folder that cannot be used is one line naming it (exit 1)', async (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'a-file');
  writeFileSync(file, 'not a directory');
  const [readDirs, asFile, underFile] = await Promise.all([
    runCli(['serve'], { FLOWSVC_DATA_DIR: join(dir, 'unused'), FLOWSVC_FILE_READ_DIRS: join(dir, 'missing') }),
    runCli(['serve'], { FLOWSVC_DATA_DIR: file, FLOWSVC_PORT: '0' }),
    runCli(['serve'], { FLOWSVC_DATA_DIR: join(file, 'data'), FLOWSVC_PORT: '0' }),
  ]);
  oneLine(t, readDirs, 1, /^flowsvc: FLOWSVC_FILE_READ_DIRS=\S+missing: \S+missing does not exist/, 'a folder to read that is missing');
  oneLine(t, asFile, 1, /^flowsvc: FLOWSVC_DATA_DIR=\S+a-file is a file, or lies under one, not a directory/, 'a data dir that is a file');
  oneLine(t, underFile, 1, /^flowsvc: FLOWSVC_DATA_DIR=\S+a-file\/data is a file, or lies under one/, 'a data dir under a file');
});

t.test('a data dir this user cannot write is one line naming it (exit 1)', async (t) => {
  const dir = tempDir(t);
  const locked = join(dir, 'locked');
  // Permission bits bind no one running as root: then the service runs as nobody, under a folder root owns.
  const asRoot = process.getuid?.() === 0;
  mkdirSync(locked, { mode: asRoot ? 0o755 : 0o555 });
  const target = join(locked, 'data');
  const result = await runCli(['serve'], { FLOWSVC_DATA_DIR: target, FLOWSVC_PORT: '0' }, asRoot ? { uid: 65534, gid: 65534 } : undefined);
  oneLine(t, result, 1, /^flowsvc: FLOWSVC_DATA_DIR=\S+locked\/data is not writable by this user/, 'a data dir this user cannot write');
  t.notOk(existsSync(target), 'nothing made there');
});

t.test('a port in use fails the start before the store and superuser are created (exit 1)', async (t) => {
  const holder = createServer();
  await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
  t.teardown(() => holder.close());
  const port = String((holder.address() as AddressInfo).port);
  const dir = join(tempDir(t), 'data');
  const busy = await runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: port });
  oneLine(t, busy, 1, new RegExp(`^flowsvc: FLOWSVC_PORT=${port} is in use by another process on 127\\.0\\.0\\.1; set FLOWSVC_PORT or stop it\\n$`), 'a port in use');
  t.notOk(holdsLmdbStore(dir), 'no store was created, so no password was generated and lost');
  const badHost = await runCli(['serve'], { FLOWSVC_DATA_DIR: dir, FLOWSVC_HOST: '192.0.2.1', FLOWSVC_PORT: port });
  oneLine(t, badHost, 1, /^flowsvc: FLOWSVC_HOST=192\.0\.2\.1 is not an address of this machine/, "an address not this machine's");
});

t.test("two services on one data dir: the second refuses, naming the first one's pid (exit 1)", async (t) => {
  const dir = tempDir(t);
  const env = { FLOWSVC_DATA_DIR: dir, FLOWSVC_PORT: '0', FLOWSVC_LOG_LEVEL: 'warn' };
  const first = await serveProcess(env);
  t.teardown(() => first.child.kill('SIGKILL'));
  const second = await runCli(['serve'], env);
  const refusal = new RegExp(`^flowsvc: FLOWSVC_DATA_DIR=\\S+ is in use by another flowsvc service \\(pid ${first.child.pid}\\); stop it, or set FLOWSVC_DATA_DIR to another directory`);
  oneLine(t, second, 1, refusal, 'a second service');
  t.equal((await fetch(`${first.url}/health`)).status, 200, 'the first keeps serving');
  first.child.kill('SIGKILL');
  await new Promise((done) => first.child.once('exit', done));
  const after = await serveProcess(env);
  t.teardown(() => after.child.kill('SIGKILL'));
  t.equal((await fetch(`${after.url}/health`)).status, 200, 'once the first is killed, the next one starts: no stale lock');
});

t.test('api-key create where no store is refuses, naming the data dir, and creates nothing (exit 1)', async (t) => {
  const dir = join(tempDir(t), 'not-here');
  const refused = await runCli(['api-key', 'create'], { FLOWSVC_DATA_DIR: dir });
  oneLine(t, refused, 1, /^flowsvc: FLOWSVC_DATA_DIR=\S+not-here holds no flowsvc store \(\S+not-here\)[^\n]*--init creates a store there/, 'no store');
  t.notOk(existsSync(dir), 'no data dir made');
});

t.test('--version prints the version', async (t) => {
  const [long, short] = await Promise.all([runCli(['--version'], {}), runCli(['-v'], {})]);
  const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', 'package.json'), 'utf8'));
  t.equal(long.code, 0);
  t.equal(long.stdout, `flowsvc ${version}\n`);
  t.equal(short.stdout, long.stdout);
});
