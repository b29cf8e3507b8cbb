/**
 * The container recipe (deploy/) runs only what the README documents: the Dockerfile's build and start commands,
 * the compose file's usage lines, and every FLOWSVC_ setting it passes appear in README.md. (The recipe needs a
 * container engine, which CI has not; this keeps it from drifting from the commands that are tested.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';

const root = join(import.meta.dirname, '..');
const read = (path: string) => readFileSync(join(root, path), 'utf8');
const readme = read('README.md');

t.test('the Dockerfile builds and starts with documented commands', async (t) => {
  const dockerfile = read('deploy/Dockerfile');
  const runs = [...dockerfile.matchAll(/^RUN (.+)$/gm)].map((match) => match[1]);
  t.ok(runs.length > 0);
  for (const command of runs) t.ok(readme.includes(command), `README documents: ${command}`);
  const cmd = /^CMD (\[.+\])$/m.exec(dockerfile);
  const start = (JSON.parse(cmd![1]) as string[]).join(' ');
  t.equal(start, 'node bin/flowsvc.js serve');
  t.ok(readme.includes(start), `README documents: ${start}`);
});

t.test("the compose file's commands and settings are the README's", async (t) => {
  const compose = read('deploy/compose.yaml');
  const usage = [...compose.matchAll(/^#\s{3}(.+)$/gm)].map((match) => match[1].trim());
  t.ok(usage.length >= 2);
  for (const line of usage) {
    const command = line.replace(/^(\w+=\S+ )+/, '');
    t.ok(readme.includes(command), `README documents: ${command}`);
  }
  const settings = new Set([...compose.matchAll(/\b(FLOWSVC_[A-Z_]+):/g)].map((match) => match[1]));
  t.ok(settings.size >= 5);
  for (const setting of settings) t.ok(readme.includes(`\`${setting}\``), `README documents ${setting}`);
  for (const file of ['deploy/nats.conf', 'deploy/nginx.conf', 'deploy/Dockerfile']) t.ok(compose.includes(file.slice('deploy/'.length)), `compose uses ${file}`);
});
