/**
 * A service's API key: the node's field (a global variable's value already when the field names one), else the
 * service's variable (request header, the caller's global variables, then the environment where
 * FLOWSVC_FALLBACK_TO_ENV_VAR allows), as model keys are found. Without one the run stops with a 400 naming both,
 * before any request leaves.
 */
import { VariableNotFoundError } from '../../engine/variables.js';
import type { ComponentContext } from '../contract.js';

export interface KeySource {
  service: string;
  /** NEEDLE_API_KEY, ... */
  variable: string;
  /** The node's field name and display name, for the message. */
  field: string;
  fieldDisplayName: string;
}

export async function serviceKey(given: string, source: KeySource, ctx: Pick<ComponentContext, 'variable'>): Promise<string> {
  if (given.trim()) return given.trim();
  const fromVariable = (await ctx.variable(source.variable).catch(() => '')).trim();
  if (fromVariable) return fromVariable;
  // A missing variable, as the engine reports one a field names: a 400 the caller can act on.
  throw new VariableNotFoundError(source.variable, `${source.service} needs an API key and the "${source.fieldDisplayName}" field (${source.field}) is empty`);
}
