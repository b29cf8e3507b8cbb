#!/usr/bin/env node
// Compiles the TypeScript sources to dist/ only when they changed since the last build, so that `npm start` and
// the `flowsvc` command start at once when nothing changed. Compiling is transpiling only: swc strips the types of
// each file on its own (about half a second for the whole tree here, where tsc took 13 s), and type-checking
// belongs to `npm run typecheck` and CI (tsconfig's isolatedModules makes tsc refuse what a per-file transpiler
// cannot compile). A fingerprint of every input's path, size and modification time is kept beside the output; an
// edit, an added or removed file, a changed tsconfig or lockfile triggers a build, and a failed build writes no
// fingerprint. Each output is written beside and renamed into place, so a process starting meanwhile never loads
// half a file; outputs whose source is gone are removed after.
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE_DIRS = ['src', 'protocol', 'actors', 'bench', 'examples'];
const SOURCE_FILES = ['tsconfig.json', 'package-lock.json'];
/** What dist/ gets besides compiled TypeScript: the JSON the sources import (`with { type: 'json' }`). */
const COPIED = /\.json$/;

function* filesUnder(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

const sourcesOf = (root) => SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(root, dir))]).filter((file) => file.endsWith('.ts') || COPIED.test(file));

function fingerprint(root, sources) {
  const hash = createHash('sha256');
  for (const file of [...sources, ...SOURCE_FILES.map((name) => join(root, name))].sort()) {
    const stat = statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  }
  return hash.digest('hex');
}

/** Writes `text` to `path` through a temporary name in the same folder, so that readers see all of it or none. */
function writeWhole(path, text) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, path);
}

/** The options of one file's compile: ES2022 modules as Node runs them, import attributes kept, a linked map. */
function swcOptions(source, output) {
  return {
    filename: source,
    sourceFileName: relative(dirname(output), source),
    sourceMaps: true,
    inlineSourcesContent: false,
    swcrc: false,
    configFile: false,
    module: { type: 'es6' },
    jsc: {
      parser: { syntax: 'typescript' },
      target: 'es2022',
      transform: { useDefineForClassFields: true },
      experimental: { keepImportAttributes: true, emitAssertForImportAttributes: false },
    },
  };
}

/** swc from the project's node_modules; a project installed without its devDependencies cannot compile. */
function loadSwc(root) {
  try {
    return createRequire(join(root, 'package.json'))('@swc/core');
  } catch (error) {
    return { missing: `cannot load the compiler @swc/core (${String(error?.message ?? error).split('\n')[0]}): run npm ci in ${root}` };
  }
}

async function compileAll(root, sources) {
  const swc = loadSwc(root);
  if (swc.missing) return [swc.missing];
  const dist = join(root, 'dist');
  const written = new Set();
  const failures = [];
  await Promise.all(
    sources.map(async (source) => {
      const output = join(dist, relative(root, source)).replace(/\.ts$/, '.js');
      mkdirSync(dirname(output), { recursive: true });
      written.add(output);
      if (!source.endsWith('.ts')) return copyFileSync(source, output);
      written.add(`${output}.map`);
      try {
        const { code, map } = await swc.transformFile(source, swcOptions(source, output));
        writeWhole(output, `${code}\n//# sourceMappingURL=${basename(output)}.map\n`);
        writeWhole(`${output}.map`, map);
      } catch (error) {
        failures.push(`${relative(root, source)}: ${String(error?.message ?? error).trim()}`);
      }
    }),
  );
  if (failures.length > 0) return failures;
  // What a removed or renamed source compiled to goes too: dist/ holds what the sources say, nothing older.
  // Another process's build may be writing beside this one (tests start several): its temporary files are its own.
  for (const dir of SOURCE_DIRS) {
    for (const file of filesUnder(join(dist, dir))) if (!written.has(file) && !file.endsWith('.tmp')) rmSync(file, { force: true });
  }
  return [];
}

/**
 * Compiles `root`'s sources into its dist/ if they changed since the last build. `say` gets the progress lines.
 * Resolves true when dist/ is up to date, false when a source did not compile (its errors were said).
 */
export async function buildIfChanged(root, say = (line) => process.stderr.write(`${line}\n`)) {
  const sources = sourcesOf(root);
  const marker = join(root, 'dist', '.sources-fingerprint');
  const current = fingerprint(root, sources);
  const built = existsSync(marker) ? readFileSync(marker, 'utf8') : '';
  if (current === built) return true;
  const started = performance.now();
  const why = built ? 'sources changed' : 'first start';
  const count = sources.filter((file) => file.endsWith('.ts')).length;
  say(`flowsvc: ${why}: compiling ${count} TypeScript files to dist/ with swc (types are checked by npm run typecheck)...`);
  const failures = await compileAll(root, sources);
  if (failures.length > 0) {
    say(`flowsvc: ${failures.length} file(s) did not compile:\n${failures.join('\n')}`);
    return false;
  }
  writeFileSync(marker, current);
  say(`flowsvc: compiled in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

// Run as a script (npm run build, prebench): the project's root, or another one named (the tests build their own).
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
  if (!(await buildIfChanged(root))) process.exit(1);
}
