/**
 * A speech provider's key by its variable name: the request's global variables first, then the user's stored
 * variables, then the environment when FLOWSVC_FALLBACK_TO_ENV_VAR allows it (as runs resolve `load_from_db`).
 */
import type { Config } from '../../config.js';
import type { VariablesService } from '../variables.service.js';

export type VoiceKeyResolver = (userId: string, name: string, requestVariables: Record<string, string>) => Promise<string | undefined>;

export function voiceKeyResolver(variables: Pick<VariablesService, 'resolve'>, config: Pick<Config, 'FALLBACK_TO_ENV_VAR'>): VoiceKeyResolver {
  return async (userId, name, requestVariables) => {
    const key = requestVariables[name] || (await variables.resolve(userId, name)) || (config.FALLBACK_TO_ENV_VAR ? process.env[name] : undefined);
    return key || undefined;
  };
}
