/**
 * `npm start` compiles only when the sources changed (scripts/build-if-changed.mjs): run on a small project of
 * our own, the first call compiles, a second one with nothing changed does not, an edit compiles again, and a
 * failed build is tried again at the next call instead of being taken for done.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';

const script = join(import.meta.dirname, '..', 'scripts', 'build-if-changed.mjs');
const modules = join(import.meta.dirname, '..', 'node_modules');

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'flowsvc-build-'));
  mkdirSync(join(root, 'src', 'main'), { recursive: true });
  symlinkSync(modules, join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, outDir: 'dist', rootDir: '.', types: [] } }));
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', include: ['src'] }));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'src', 'main', 'cli.ts'), 'export const answer: number = 1;\n');
  return root;
}

const build = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
const compiled = (root: string) => readFileSync(join(root, 'dist', 'src', 'main', 'cli.js'), 'utf8');

t.test('compiles at the first call, not again until a source changes', async (t) => {
  const root = project();
  t.teardown(() => rmSync(root, { recursive: true, force: true }));

  const first = build(root);
  t.equal(first.status, 0, first.stderr);
  t.match(first.stderr, /first start, compiling/);
  t.match(compiled(root), /answer = 1/);

  const second = build(root);
  t.equal(second.status, 0);
  t.equal(second.stderr, '', 'nothing changed: no compile');

  writeFileSync(join(root, 'src', 'main', 'cli.ts'), 'export const answer: number = 42;\n');
  const edited = build(root);
  t.match(edited.stderr, /sources changed, compiling/);
  t.match(compiled(root), /answer = 42/, 'the edit reached dist');

  writeFileSync(join(root, 'src', 'main', 'broken.ts'), 'export const wrong: number = "text";\n');
  const failing = build(root);
  t.not(failing.status, 0, 'a type error fails the start');
  const again = build(root);
  t.not(again.status, 0, 'and is tried again, not taken for built');
  t.match(again.stderr, /compiling/);

  rmSync(join(root, 'src', 'main', 'broken.ts'));
  t.equal(build(root).status, 0, 'removing the file builds again');
  t.equal(build(root).stderr, '', 'then nothing to do');
});
