/**
 * The machine-readable description (/openapi.json) and the interactive page (/docs). Spec section 1 names /docs
 * as where the description is served, so /docs also answers with the JSON to clients that prefer it.
 */
import { z } from 'zod';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { NotFoundError } from '../../errors/index.js';
import { buildOpenApiDocument } from '../../openapi/document.js';
import { prefersJson } from './content-negotiation.js';
import { docsPage } from './docs-page.js';
import { packageVersion } from '../../package-version.js';
import { SwaggerUiAssets } from './swagger-ui-assets.js';

const TITLE = 'flowsvc';
const OPENAPI_URL = '/openapi.json';
const ASSETS_URL = '/docs/assets';
/** The answer depends on Accept, so shared caches must key on it. */
const VARY_ACCEPT = { vary: 'Accept' };

/** `all` returns the complete route table, so the document lists every route that exists. */
export function docsRoutes(services: Services, all: () => Route[]): Route[] {
  const assets = new SwaggerUiAssets();

  // Built on first request, once: the table is fixed after start-up, and serialising ahead of time means each
  // request only copies bytes. Lazy, because `all()` is complete only after buildRoutes has returned.
  let documentJson: Buffer | undefined;
  const openapiJson = () =>
    (documentJson ??= Buffer.from(
      JSON.stringify(
        buildOpenApiDocument(all(), { title: TITLE, version: packageVersion(), webhookAuth: services.config.WEBHOOK_AUTH_ENABLE }),
      ),
    ));

  let page: string | undefined;
  const docsHtml = () =>
    (page ??= docsPage({ title: TITLE, openapiUrl: OPENAPI_URL, assetsUrl: ASSETS_URL, assetsVersion: assets.version() }));

  return [
    defineRoute({
      method: 'GET',
      path: OPENAPI_URL,
      summary: 'The OpenAPI 3.1 description of this service',
      tags: ['Docs'],
      auth: 'none',
      responses: { 200: { description: 'The OpenAPI document', contentType: 'application/json' } },
      handler: () => Reply.bytes(openapiJson(), 'application/json'),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      summary: 'Interactive API documentation (Swagger UI); the OpenAPI document when Accept prefers JSON',
      tags: ['Docs'],
      auth: 'none',
      responses: { 200: { description: 'The Swagger UI page', contentType: 'text/html' } },
      handler({ headers }) {
        if (prefersJson(headers.accept)) return Reply.bytes(openapiJson(), 'application/json', 200, VARY_ACCEPT);
        return Reply.bytes(docsHtml(), 'text/html; charset=utf-8', 200, VARY_ACCEPT);
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${ASSETS_URL}/:file`,
      summary: 'Swagger UI static files',
      tags: ['Docs'],
      auth: 'none',
      hidden: true,
      params: z.object({ file: z.string() }),
      handler({ params }) {
        const asset = assets.get(params.file);
        if (!asset) throw new NotFoundError('Not Found');
        // Asset URLs carry the Swagger UI version, so a cached copy never goes stale.
        return Reply.bytes(asset.data, asset.contentType, 200, { 'cache-control': 'public, max-age=604800, immutable' });
      },
    }),
  ];
}
