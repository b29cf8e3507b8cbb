/** One route -> one OpenAPI operation. */
import type { Route } from '../edge/route.js';
import { parametersOf } from './parameters.js';
import { operationIdOf } from './path-template.js';
import { requestBodyOf } from './request-body.js';
import { responsesOf } from './responses.js';
import type { SchemaComponents } from './schema-components.js';
import { securityFor, type SecurityOptions } from './security.js';
import type { Operation } from './types.js';

export function operationOf(route: Route, components: SchemaComponents, options: SecurityOptions): Operation {
  const parameters = parametersOf(route, components);
  const requestBody = requestBodyOf(route, components);
  const security = securityFor(route.auth, options);
  return {
    tags: route.tags,
    summary: route.summary,
    // The superuser check is not expressible as a security requirement; say it in words.
    ...(route.auth === 'superuser' && { description: 'Requires a superuser.' }),
    operationId: operationIdOf(route.method, route.path),
    ...(route.deprecated && { deprecated: true }),
    ...(parameters.length > 0 && { parameters }),
    ...(requestBody && { requestBody }),
    responses: responsesOf(route, components),
    ...(security && { security }),
  };
}
