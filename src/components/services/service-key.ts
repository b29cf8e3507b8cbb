/**
 * A hosted service's key: the node's own field, else the service's global variable (a stored variable, an
 * `X-LANGFLOW-GLOBAL-VAR-*` header, or the environment with FLOWSVC_FALLBACK_TO_ENV_VAR), as for model keys. A
 * field naming a variable (`load_from_db`) is resolved by the engine before the component runs, with the same
 * sources. Missing, the run fails with the engine's missing-variable 400, prefixed with which service asked and
 * for which field; empty, with a 400 of its own; either before any request is made.
 */
import { VariableNotFoundError } from '../../engine/variables.js';
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import type { KeyedServiceInfo } from './service-endpoint.js';

/** The node's field holding the key, as the message names it: "Tavily API Key" field (api_key). */
export interface KeyField {
  name: string;
  displayName: string;
}

export async function serviceKey(service: KeyedServiceInfo, given: string | null | undefined, ctx: Pick<ComponentContext, 'variable'>, field: KeyField): Promise<string> {
  const own = given?.trim();
  if (own) return own;
  const neededFor = `${service.name} needs an API key and the "${field.displayName}" field (${field.name}) is empty`;
  let fromVariable: string;
  try {
    fromVariable = (await ctx.variable(service.keyVariable)).trim();
  } catch (error) {
    if (error instanceof VariableNotFoundError) throw new VariableNotFoundError(service.keyVariable, neededFor);
    throw error;
  }
  if (fromVariable) return fromVariable;
  throw new ComponentError(`${neededFor}, and the ${service.keyVariable} variable is empty too.`);
}
