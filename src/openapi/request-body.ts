/** The request body of an operation, as the edge reads it (src/edge/uws-server.ts `handle`). */
import type { Route } from '../edge/route.js';
import type { SchemaComponents } from './schema-components.js';
import type { RequestBody, SchemaObject } from './types.js';

/**
 * Uploads carry the file in a part the route contract does not name; Langflow calls it `file` on every upload
 * endpoint (flows, projects, v1 and v2 files), so that is what the document shows.
 */
const UPLOADED_FILE: SchemaObject = { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' };

export function requestBodyOf(route: Route, components: SchemaComponents): RequestBody | undefined {
  switch (route.bodyKind ?? 'json') {
    case 'json':
      if (!route.body) return undefined;
      return { required: !acceptsNoBody(route), content: { 'application/json': { schema: components.convert(route.body, 'input') } } };
    case 'multipart':
      return { required: true, content: { 'multipart/form-data': { schema: multipartSchema(route, components) } } };
    case 'raw':
      // Raw routes read the bytes themselves; only a declared schema says what those bytes should be.
      if (!route.body) return undefined;
      return { required: !acceptsNoBody(route), content: { '*/*': { schema: components.convert(route.body, 'input') } } };
  }
}

/** The edge hands an empty body to the schema as `undefined`; whether that parses decides `required`. */
function acceptsNoBody(route: Route): boolean {
  return route.body!.safeParse(undefined).success;
}

/** The form fields of the body schema (inlined: forms are flat), plus the uploaded file. */
function multipartSchema(route: Route, components: SchemaComponents): SchemaObject {
  const fields = route.body ? inlineObject(components.convert(route.body, 'input'), components) : {};
  const properties = { ...((fields.properties as Record<string, SchemaObject> | undefined) ?? {}) };
  properties.file ??= UPLOADED_FILE;
  const required = new Set([...((fields.required as string[] | undefined) ?? []), 'file']);
  return { type: 'object', properties, required: [...required] };
}

function inlineObject(schema: SchemaObject, components: SchemaComponents): SchemaObject {
  if (typeof schema.$ref !== 'string') return schema;
  return components.schemas[schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1)] ?? {};
}
