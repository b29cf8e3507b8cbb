/** Route paths (`/flows/:flow_id`) in OpenAPI's template form (`/flows/{flow_id}`). */

export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The names of the `:param` segments, in order. */
export function pathParamNames(path: string): string[] {
  return path
    .split('/')
    .filter((segment) => segment.startsWith(':'))
    .map((segment) => segment.slice(1));
}

/** A stable, unique operation id (Swagger UI deep links use it): `get_api_v1_flows_flow_id`. */
export function operationIdOf(method: string, path: string): string {
  const words = path.split(/[^A-Za-z0-9]+/).filter((word) => word.length > 0);
  return [method.toLowerCase(), ...words].join('_');
}
