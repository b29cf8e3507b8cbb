/**
 * Where ../shared is: beside the repository, where CI puts it. Only the compatibility checks (test-compat/, `npm
 * run test:compat`) read it; `npm test` runs on a fresh clone without it. A check that needs it and does not find
 * it fails, naming the folder: it is never skipped in silence.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const SHARED_DIR = fileURLToPath(new URL('../../../shared/', import.meta.url));
export const STARTERS_DIR = process.env.LANGFLOW_STARTERS_DIR ?? `${SHARED_DIR}langflow-starters`;

/** The starters folder, or an error that says where it was looked for and how to provide it. */
export function startersDir(): string {
  if (!existsSync(STARTERS_DIR)) {
    throw new Error(`The Langflow starter exports are not at ${STARTERS_DIR}: put ../shared beside the repository or set LANGFLOW_STARTERS_DIR`);
  }
  return STARTERS_DIR;
}
