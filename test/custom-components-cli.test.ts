/** A local `flowsvc run` follows FLOWSVC_CUSTOM_COMPONENTS as the server does. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { customFlow, SHOUT_SOURCE } from './support/custom-sources.js';
import { runCli } from './support/process.js';

t.test('flowsvc run runs a custom component where allowed, and names the node where not', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-custom-cli-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'shout.json');
  writeFileSync(file, JSON.stringify(customFlow('shout', SHOUT_SOURCE, 'shouted', 'Shout', { times: 2 })));
  const allowed = await runCli(['run', file, '--input', 'hey'], { FLOWSVC_CUSTOM_COMPONENTS: 'true' });
  t.equal(allowed.code, 0, allowed.stderr);
  t.equal(allowed.stdout, 'HEY HEY\n');
  const refused = await runCli(['run', file, '--input', 'hey'], { FLOWSVC_CUSTOM_COMPONENTS: 'false' });
  t.not(refused.code, 0);
  t.match(refused.stderr, /Shout-cc001.*custom components are not allowed/);
});
