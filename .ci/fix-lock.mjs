#!/usr/bin/env node
// The registry mirror here lacks some optional platform packages (msgpackr-extract for macOS, Windows, 32-bit
// ARM), so `npm install` leaves them out of package-lock.json, and `npm ci` then refuses the lock as out of sync.
// This adds lock entries for them with their os/cpu: npm skips them on other platforms without fetching anything.
// Run it after any `npm install` (npm run lock:fix); it is idempotent.
import { readFileSync, writeFileSync } from 'node:fs';

const PLATFORMS = { 'darwin-arm64': ['darwin', 'arm64'], 'darwin-x64': ['darwin', 'x64'], 'linux-arm': ['linux', 'arm'], 'linux-arm64': ['linux', 'arm64'], 'linux-x64': ['linux', 'x64'], 'win32-x64': ['win32', 'x64'] };
const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const added = [];
for (const spec of Object.values(lock.packages)) {
  for (const [dep, version] of Object.entries(spec.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    const platform = dep.startsWith('@msgpackr-extract/msgpackr-extract-') ? dep.slice('@msgpackr-extract/msgpackr-extract-'.length) : undefined;
    if (lock.packages[key] || !platform || !PLATFORMS[platform]) continue;
    const [os, cpu] = PLATFORMS[platform];
    lock.packages[key] = { version, cpu: [cpu], license: 'MIT', optional: true, os: [os] };
    added.push(key);
  }
}
const [root, ...rest] = Object.entries(lock.packages);
lock.packages = Object.fromEntries([root, ...rest.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
writeFileSync(path, JSON.stringify(lock, null, 2) + '\n');
console.log(added.length ? `added lock entries: ${added.join(', ')}` : 'lock already complete');
