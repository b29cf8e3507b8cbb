/** Path and query parameters of an operation, read from the route's `params` and `query` object schemas. */
import type { Route } from '../edge/route.js';
import { pathParamNames } from './path-template.js';
import type { SchemaComponents } from './schema-components.js';
import type { Parameter, SchemaObject } from './types.js';

interface ObjectSchema {
  properties: Record<string, SchemaObject>;
  required: string[];
}

export function parametersOf(route: Route, components: SchemaComponents): Parameter[] {
  const path = route.params ? objectSchemaOf(components.convert(route.params, 'input'), components) : undefined;
  const parameters: Parameter[] = pathParamNames(route.path).map((name) =>
    // Every `:name` segment is a parameter even when the route validates none of them.
    parameter(name, 'path', true, path?.properties[name] ?? { type: 'string' }),
  );
  const query = route.query ? objectSchemaOf(components.convert(route.query, 'input'), components) : undefined;
  for (const [name, schema] of Object.entries(query?.properties ?? {})) {
    parameters.push(parameter(name, 'query', query!.required.includes(name), schema));
  }
  return parameters;
}

/** OpenAPI puts a parameter's description beside its schema, not inside it. */
function parameter(name: string, where: Parameter['in'], required: boolean, schema: SchemaObject): Parameter {
  const { description, ...rest } = schema;
  const out: Parameter = { name, in: where, required, schema: rest };
  if (typeof description === 'string') out.description = description;
  return out;
}

/** Properties of an object schema, following one `$ref` when the object itself carries an id. */
function objectSchemaOf(schema: SchemaObject, components: SchemaComponents): ObjectSchema | undefined {
  let target = schema;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.slice(schema.$ref.lastIndexOf('/') + 1);
    target = components.schemas[name] ?? {};
  }
  if (typeof target.properties !== 'object' || target.properties === null) return undefined;
  return {
    properties: target.properties as Record<string, SchemaObject>,
    required: Array.isArray(target.required) ? (target.required as string[]) : [],
  };
}
