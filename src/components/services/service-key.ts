/**
 * A hosted service's key: the node's own field, else the service's global variable (a stored variable, an
 * `X-LANGFLOW-GLOBAL-VAR-*` header, or the environment with FLOWSVC_FALLBACK_TO_ENV_VAR), as for model keys. A
 * field naming a variable (`load_from_db`) is resolved by the engine before the component runs, with the same
 * sources. Missing, the run fails with a 400 naming the variable before any request is made.
 */
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import type { ServiceInfo } from './service-endpoint.js';

export async function serviceKey(service: ServiceInfo, given: string | null | undefined, ctx: ComponentContext, field: string): Promise<string> {
  const own = given?.trim();
  if (own) return own;
  // Not found, the resolver's own error (a 400 naming the variable and every place it may come from) goes as is.
  const fromVariable = (await ctx.variable(service.keyVariable)).trim();
  if (fromVariable) return fromVariable;
  throw new ComponentError(`${service.name} needs an API key: the "${field}" field is empty and the ${service.keyVariable} variable is empty too.`);
}
