#!/usr/bin/env node
// Thin launcher: the CLI itself is TypeScript compiled to dist/. It is compiled here first when the sources changed
// since the last build (scripts/build-if-changed.mjs; with nothing changed, a check of a few milliseconds), so
// `npm start`, a `flowsvc` linked with `npm link` and `node bin/flowsvc.js` always run the current sources.
import { fileURLToPath } from 'node:url';
import { buildIfChanged } from '../scripts/build-if-changed.mjs';

if (!(await buildIfChanged(fileURLToPath(new URL('..', import.meta.url))))) process.exit(1);
const { main } = await import('../dist/src/main/cli.js');
await main(process.argv.slice(2));
