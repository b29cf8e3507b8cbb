/**
 * The OpenAPI 3.1 document, generated from the route table and its zod schemas (never written by hand), so it
 * cannot drift from what the edge actually serves and validates.
 */
import type { Route } from '../edge/route.js';
import { operationOf } from './operation.js';
import { toOpenApiPath } from './path-template.js';
import { SchemaComponents } from './schema-components.js';
import { securitySchemes, type SecurityOptions } from './security.js';
import type { OpenApiDocument, PathItem } from './types.js';

export const OPENAPI_VERSION = '3.1.0';

export interface DocumentOptions extends SecurityOptions {
  title: string;
  version: string;
  description?: string;
}

/** Every route except `hidden` ones, in table order; tags listed in order of first use. */
export function buildOpenApiDocument(routes: readonly Route[], options: DocumentOptions): OpenApiDocument {
  const components = new SchemaComponents();
  const paths: Record<string, PathItem> = {};
  const tags = new Set<string>();
  const operationIds = new Set<string>();
  for (const route of routes) {
    if (route.hidden) continue;
    const operation = operationOf(route, components, options);
    operation.operationId = unique(operation.operationId, operationIds);
    const item = (paths[toOpenApiPath(route.path)] ??= {});
    item[route.method.toLowerCase() as keyof PathItem] = operation;
    for (const tag of route.tags) tags.add(tag);
  }
  const info: OpenApiDocument['info'] = { title: options.title, version: options.version };
  if (options.description) info.description = options.description;
  return {
    openapi: OPENAPI_VERSION,
    info,
    paths,
    components: { schemas: sortedByKey(components.schemas), securitySchemes },
    tags: [...tags].map((name) => ({ name })),
  };
}

/** Two paths that differ only in punctuation would share an id; Swagger UI needs them distinct. */
function unique(id: string, taken: Set<string>): string {
  let candidate = id;
  for (let n = 2; taken.has(candidate); n++) candidate = `${id}_${n}`;
  taken.add(candidate);
  return candidate;
}

function sortedByKey<T>(record: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
