#!/usr/bin/env node
// Compiles the TypeScript sources to dist/ only when they changed since the last build, so that `npm start`
// listens in well under a second on a second start instead of running tsc each time (tsc takes about 2 s even
// with nothing to emit: it loads and checks the whole program before it knows). A fingerprint of every input's
// path, size and modification time is kept beside the output; any edit, added or removed file, or a changed
// tsconfig or lockfile (types come from dependencies) triggers a build, and a failed build writes no fingerprint.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The project's root; another one may be named (the tests build a small project of their own with it).
const root = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..');
const SOURCE_DIRS = ['src', 'protocol', 'actors', 'bench'];
const SOURCE_FILES = ['tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];
const FINGERPRINT = join(root, 'dist', '.sources-fingerprint');
const ENTRY = join(root, 'dist', 'src', 'main', 'cli.js');

function* filesUnder(dir) {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(path);
    else if (entry.isFile()) yield path;
  }
}

function fingerprint() {
  const hash = createHash('sha256');
  const files = [...SOURCE_DIRS.flatMap((dir) => [...filesUnder(join(root, dir))]), ...SOURCE_FILES.map((file) => join(root, file))];
  for (const file of files.sort()) {
    const stat = statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`);
  }
  return hash.digest('hex');
}

const current = fingerprint();
const built = existsSync(FINGERPRINT) ? readFileSync(FINGERPRINT, 'utf8') : '';
if (current === built && existsSync(ENTRY)) process.exit(0);

process.stderr.write(existsSync(ENTRY) ? 'flowsvc: sources changed, compiling...\n' : 'flowsvc: first start, compiling...\n');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const result = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(FINGERPRINT, current);
