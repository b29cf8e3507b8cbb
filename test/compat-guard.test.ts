/**
 * `npm run test:compat` without Langflow's starter exports (no ../shared, as in a fresh clone) says so on one line,
 * naming the folder and LANGFLOW_STARTERS_DIR, and exits 1 before any check runs; with the folder it goes on.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const guard = join(import.meta.dirname, '..', 'scripts', 'check-starters.mjs');
const check = (dir: string) => spawnSync(process.execPath, [guard], { encoding: 'utf8', env: { ...process.env, LANGFLOW_STARTERS_DIR: dir } });

t.test('no starters folder: one line naming it and LANGFLOW_STARTERS_DIR, exit 1', async (t) => {
  const missing = join(tmpdir(), 'flowsvc-no-such-starters');
  const result = check(missing);
  t.equal(result.status, 1);
  t.equal(result.stdout, '');
  t.match(result.stderr, /^test:compat: no Langflow starter exports at \S+flowsvc-no-such-starters \(LANGFLOW_STARTERS_DIR=\S+\): [^\n]*\.\.\/shared[^\n]*\n$/);
});

t.test('a starters folder: nothing said, exit 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-starters-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const result = check(dir);
  t.equal(result.status, 0, result.stderr);
  t.equal(result.stderr, '');
});
