/** Documented replies of an operation: the route's own, plus FastAPI's 422 wherever the edge validates input. */
import { ValidationErrorBody } from '../../protocol/common.schema.js';
import type { Route } from '../edge/route.js';
import type { SchemaComponents } from './schema-components.js';
import type { Response } from './types.js';

const JSON_TYPE = 'application/json';

export function responsesOf(route: Route, components: SchemaComponents): Record<string, Response> {
  // FastAPI documents an undeclared reply as a 200 with any JSON; the edge answers plain values exactly so.
  const declared = route.responses ?? { 200: { description: 'Successful Response' } };
  const out: Record<string, Response> = {};
  for (const [status, spec] of Object.entries(declared)) {
    const response: Response = { description: spec.description };
    if (status !== '204' && (spec.schema || spec.contentType || route.responses === undefined)) {
      const schema = spec.schema ? components.convert(spec.schema, 'output') : {};
      response.content = { [spec.contentType ?? JSON_TYPE]: { schema } };
    }
    out[status] = response;
  }
  if (validatesInput(route) && !out['422']) {
    out['422'] = { description: 'Validation Error', content: { [JSON_TYPE]: { schema: components.convert(ValidationErrorBody, 'output') } } };
  }
  return out;
}

/** Mirrors the edge: params, query and body schemas are checked there, except a raw body (read as bytes). */
function validatesInput(route: Route): boolean {
  return Boolean(route.params || route.query || (route.body && route.bodyKind !== 'raw'));
}
