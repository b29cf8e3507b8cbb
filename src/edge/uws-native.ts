/**
 * Loads uWebSockets.js: the fixed build first (@btc-vision/uwebsockets.js, an optional dependency: header names
 * with `_` answered, binaries for Node 20 to 25, glibc 2.38 or newer), else the trufflesuite build we have always
 * used (Node 20 only; it leaves requests with `_` in a header name unanswered, uNetworking/uWebSockets.js#1018).
 * The trufflesuite package falls back to a slow pure-JS server when no binary matches the Node ABI: that is told
 * (`uwsIsNative`), never used silently (adapter-choice.ts).
 */
import { createRequire } from 'node:module';
import type * as UWS from 'uWebSockets.js';

const require = createRequire(import.meta.url);

export interface LoadedUws {
  module: typeof UWS;
  /** The package that loaded, with its version. */
  build: string;
  /** Why the fixed build did not load, when it did not. */
  fixedBuildError?: string;
}

function load(): LoadedUws {
  let fixedBuildError: string;
  try {
    const module = require('@btc-vision/uwebsockets.js') as typeof UWS;
    return { module, build: packageOf('@btc-vision/uwebsockets.js') };
  } catch (error) {
    fixedBuildError = (error as Error).message.split('\n').find((line) => line.includes('GLIBC') || line.includes('not found')) ?? (error as Error).message.split('\n')[0];
  }
  return { module: require('uWebSockets.js') as typeof UWS, build: packageOf('uWebSockets.js'), fixedBuildError };
}

function packageOf(name: string): string {
  const pkg = require(`${name}/package.json`) as { name: string; version: string };
  return `${pkg.name}@${pkg.version}`;
}

export const loadedUws = load();
export const uws: typeof UWS = loadedUws.module;

/** True when the loaded module is a compiled uWS addon (a `.node` file in the require cache). */
export const uwsIsNative: boolean = Object.keys(require.cache).some((path) => /uWebSockets\.js|uwebsockets\.js/i.test(path) && path.endsWith('.node'));
