/**
 * Loads uWebSockets.js and tells whether its native binary is in use. The npm copy we use falls back to a slow
 * pure-JS server when no binary matches the Node ABI; that must never go unnoticed in production.
 */
import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

const require = createRequire(import.meta.url);

export const uws: typeof UWS = require('uWebSockets.js');

/** True when the loaded module is the compiled uWS addon (a `.node` file in the require cache). */
export const uwsIsNative: boolean = Object.keys(require.cache).some((path) => path.includes('uWebSockets.js') && path.endsWith('.node'));
