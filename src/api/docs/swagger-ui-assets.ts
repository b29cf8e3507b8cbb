/**
 * Swagger UI's static files, served from the installed swagger-ui-dist package rather than a CDN: the page
 * works offline and behind firewalls, and the UI version is the one package-lock.json pins.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The only files served, so an asset name can never reach outside the package directory. */
const CONTENT_TYPES: Record<string, string> = {
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui.css': 'text/css; charset=utf-8',
  'favicon-32x32.png': 'image/png',
  'favicon-16x16.png': 'image/png',
};

export interface Asset {
  data: Buffer;
  contentType: string;
}

export class SwaggerUiAssets {
  private readonly cache = new Map<string, Asset>();
  private directory?: string;

  /** The asset, read once on first use and kept in memory (the bundle is ~1.7 MB). Undefined if not served. */
  get(name: string): Asset | undefined {
    const contentType = Object.hasOwn(CONTENT_TYPES, name) ? CONTENT_TYPES[name] : undefined;
    if (!contentType) return undefined;
    let asset = this.cache.get(name);
    if (!asset) {
      asset = { data: readFileSync(join(this.packageDirectory(), name)), contentType };
      this.cache.set(name, asset);
    }
    return asset;
  }

  /** The installed package's version, so asset URLs change (and caches refresh) when the UI is upgraded. */
  version(): string {
    return (JSON.parse(readFileSync(join(this.packageDirectory(), 'package.json'), 'utf8')) as { version: string }).version;
  }

  private packageDirectory(): string {
    this.directory ??= dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
    return this.directory;
  }
}
