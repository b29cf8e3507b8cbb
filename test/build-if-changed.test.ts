/**
 * `npm start` compiles only when the sources changed (scripts/build-if-changed.mjs): run on a small project of
 * our own, the first call compiles (saying so), a second one with nothing changed does not, an edit compiles
 * again, a syntax error fails and is tried again at the next call instead of being taken for done, and what a
 * removed source compiled to goes. Type errors are not its business (npm run typecheck).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import t from 'tap';

const script = join(import.meta.dirname, '..', 'scripts', 'build-if-changed.mjs');
const modules = join(import.meta.dirname, '..', 'node_modules');

function project(): string {
  const root = mkdtempSync(join(tmpdir(), 'flowsvc-build-'));
  mkdirSync(join(root, 'src', 'main'), { recursive: true });
  symlinkSync(modules, join(root, 'node_modules'), 'dir');
  writeFileSync(join(root, 'package.json'), '{"type": "module"}');
  writeFileSync(join(root, 'tsconfig.json'), '{}');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'src', 'main', 'cli.ts'), "import data from './data.json' with { type: 'json' };\nexport const answer: number = 1;\nexport class Named { override = 'field'; constructor(private readonly secret: string) {} }\nexport { data };\n");
  writeFileSync(join(root, 'src', 'main', 'data.json'), '{"shipped": true}');
  return root;
}

const build = (root: string) => spawnSync(process.execPath, [script, root], { encoding: 'utf8' });
const dist = (root: string, ...path: string[]) => join(root, 'dist', 'src', 'main', ...path);

t.test('compiles at the first call, not again until a source changes', async (t) => {
  const root = project();
  t.teardown(() => rmSync(root, { recursive: true, force: true }));

  const first = build(root);
  t.equal(first.status, 0, first.stderr);
  t.match(first.stderr, /first start: compiling 1 TypeScript files to dist\/ with swc/, 'progress is printed');
  t.match(first.stderr, /compiled in \d+\.\d s/, 'and when it is done');
  const compiled = await import(pathToFileURL(dist(root, 'cli.js')).href);
  t.equal(compiled.answer, 1, 'the compiled module runs');
  t.same(compiled.data, { shipped: true }, 'its JSON import is beside it, attributes kept');
  t.equal(new compiled.Named('s').secret, 's', 'parameter properties are assigned');
  t.match(readFileSync(dist(root, 'cli.js'), 'utf8'), /\/\/# sourceMappingURL=cli\.js\.map\n$/, 'a source map is linked');
  t.same(JSON.parse(readFileSync(dist(root, 'cli.js.map'), 'utf8')).sources, ['../../../src/main/cli.ts'], 'and points at the source');

  const second = build(root);
  t.equal(second.status, 0);
  t.equal(second.stderr, '', 'nothing changed: no compile');

  writeFileSync(join(root, 'src', 'main', 'cli.ts'), 'export const answer: number = 42;\n');
  const edited = build(root);
  t.match(edited.stderr, /sources changed: compiling/);
  t.match(readFileSync(dist(root, 'cli.js'), 'utf8'), /answer = 42/, 'the edit reached dist');

  writeFileSync(join(root, 'src', 'main', 'typed.ts'), 'export const wrong: number = "text" as unknown as number;\n');
  t.equal(build(root).status, 0, 'types are not checked here');

  writeFileSync(join(root, 'src', 'main', 'broken.ts'), 'export const = ;\n');
  const failing = build(root);
  t.equal(failing.status, 1, 'a syntax error fails the start');
  t.match(failing.stderr, /broken\.ts/, 'naming the file');
  const again = build(root);
  t.equal(again.status, 1, 'and is tried again, not taken for built');
  t.match(again.stderr, /compiling/);

  rmSync(join(root, 'src', 'main', 'broken.ts'));
  rmSync(join(root, 'src', 'main', 'typed.ts'));
  t.equal(build(root).status, 0, 'removing the files builds again');
  t.notOk(existsSync(dist(root, 'typed.js')), 'what a removed source compiled to is gone');
  t.notOk(existsSync(dist(root, 'typed.js.map')), 'its map too');
  t.equal(build(root).stderr, '', 'then nothing to do');
});
