#!/usr/bin/env node
// `npm run test:compat` runs Langflow's own starter exports, which live outside the repository: ../shared/
// langflow-starters beside it (where CI puts it), or the folder LANGFLOW_STARTERS_DIR names. Without them every
// check would fail on its own; this says so once, on one line, and exits 1 before any runs.
import { existsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dir = resolve(process.env.LANGFLOW_STARTERS_DIR || join(root, '..', 'shared', 'langflow-starters'));
if (!existsSync(dir) || !statSync(dir).isDirectory()) {
  const given = process.env.LANGFLOW_STARTERS_DIR ? `LANGFLOW_STARTERS_DIR=${process.env.LANGFLOW_STARTERS_DIR}` : 'LANGFLOW_STARTERS_DIR is unset';
  process.stderr.write(`test:compat: no Langflow starter exports at ${dir} (${given}): put ../shared beside the repository, or set LANGFLOW_STARTERS_DIR to a folder of Langflow exports\n`);
  process.exit(1);
}
