/** The service's version from its package.json, found by walking up so it works from src/ (tests) and dist/. */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'flowsvc';
let cached: string | undefined;

export function packageVersion(): string {
  return (cached ??= find(dirname(fileURLToPath(import.meta.url))));
}

function find(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: unknown; version?: unknown };
      if (pkg.name === PACKAGE_NAME && typeof pkg.version === 'string') return pkg.version;
    }
    if (dirname(dir) === dir) throw new Error(`package.json of ${PACKAGE_NAME} not found above ${from}`);
  }
}
