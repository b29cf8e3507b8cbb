/**
 * Auto-login hands out superuser tokens, so by default it answers only clients on this machine: a client from
 * another address gets Langflow's "auto login disabled" 400 (its editor then shows the login page), unless
 * FLOWSVC_AUTO_LOGIN_ANY_HOST=true. Listening beyond loopback with auto-login on is warned about at start-up.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import t, { type Test } from 'tap';
import { isLoopback } from '../src/auth/loopback.js';
import { loadConfig } from '../src/config.js';
import { startService } from '../src/main/server.js';

/** This machine's first address that is not loopback: a client connecting to it is not a loopback client. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((i) => i && i.family === 'IPv4' && !i.internal)?.address;

async function service(t: Test, env: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-autologin-'));
  const lines: string[] = [];
  const config = loadConfig({}, { PORT: '0', DATA_DIR: dir, SUPERUSER_PASSWORD: 'pw', LOG_LEVEL: 'warn', ...env });
  const running = await startService(config, pino({ level: 'warn' }, { write: (line: string) => void lines.push(line) }));
  t.teardown(async () => {
    await running.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return { port: running.port, lines };
}

t.test('which addresses are loopback', async (t) => {
  for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1', '0000:0000:0000:0000:0000:0000:0000:0001', '0000:0000:0000:0000:0000:ffff:7f00:0001']) t.ok(isLoopback(address), address);
  for (const address of ['192.0.2.2', '10.0.0.1', '::ffff:10.0.0.1', 'fd00::2', '', '128.0.0.1']) t.notOk(isLoopback(address), address || 'empty');
});

t.test('by default: tokens for a loopback client, the disabled answer for another, and a start-up warning', async (t) => {
  t.ok(outside, 'this machine has a non-loopback IPv4 address to connect from');
  const { port, lines } = await service(t, { HOST: '0.0.0.0' });
  t.match(lines.join(''), 'it answers only clients on this machine', 'the start-up warning says so');
  const local = await fetch(`http://127.0.0.1:${port}/api/v1/auto_login`);
  t.equal(local.status, 200);
  t.match(await local.json(), { access_token: String, token_type: 'bearer' });
  const remote = await fetch(`http://${outside}:${port}/api/v1/auto_login`);
  t.equal(remote.status, 400);
  t.match(await remote.json(), { detail: { auto_login: false, message: /same machine/ } });
});

t.test('FLOWSVC_AUTO_LOGIN_ANY_HOST=true answers any client, with a louder warning', async (t) => {
  const { port, lines } = await service(t, { HOST: '0.0.0.0', AUTO_LOGIN_ANY_HOST: 'true' });
  t.match(lines.join(''), 'anyone who reaches the port gets superuser tokens');
  const remote = await fetch(`http://${outside}:${port}/api/v1/auto_login`);
  t.equal(remote.status, 200);
});

t.test('listening on loopback only: no warning', async (t) => {
  const { lines } = await service(t, { HOST: '127.0.0.1' });
  t.notMatch(lines.join(''), 'auto-login');
});
