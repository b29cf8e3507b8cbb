#!/usr/bin/env node
// Thin launcher: the CLI itself is TypeScript compiled to dist/ by `npm run build` (npm start builds first).
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const compiled = fileURLToPath(new URL('../dist/src/main/cli.js', import.meta.url));
if (!existsSync(compiled)) {
  console.error('flowsvc is not built yet: run `npm run build` (or `npm start`, which builds first).');
  process.exit(1);
}
const { main } = await import(compiled);
await main(process.argv.slice(2));
