/** How a run resolves global variables named by fields (`load_from_db`): request headers, stored, environment. */
import { AppError, ErrorKind } from '../errors/app.error.js';

export interface VariableResolver {
  /** The variable's value; throws VariableNotFoundError when no source has it. */
  resolve(name: string): Promise<string>;
}

export class VariableNotFoundError extends AppError {
  override name = 'VariableNotFoundError';
  /** `neededFor` says who asked, before the advice ("Needle needs an API key (field ... is empty)"). */
  constructor(readonly variable: string, neededFor?: string) {
    super(ErrorKind.BadRequest, `${neededFor ? `${neededFor}: ` : ''}Variable ${variable} not found. Set it as a global variable, pass it in the request (X-FLOWSVC-GLOBAL-VAR-${variable.toUpperCase()} header or "globals"), or set it in the service's environment (read there while FLOWSVC_FALLBACK_TO_ENV_VAR is true, the default).`);
  }
}

export interface VariableSources {
  /** Request-level values (headers, v2 globals), names as given. */
  request?: Readonly<Record<string, string>>;
  /** Stored variables of the flow's owner. */
  stored?: (name: string) => Promise<string | undefined> | string | undefined;
  /** Process environment, when the fallback is enabled. */
  env?: NodeJS.ProcessEnv;
}

export function variableResolver(sources: VariableSources): VariableResolver {
  return {
    async resolve(name) {
      const fromRequest = sources.request?.[name] ?? sources.request?.[name.toUpperCase()];
      if (fromRequest !== undefined) return fromRequest;
      const stored = await sources.stored?.(name);
      if (stored !== undefined) return stored;
      const fromEnv = sources.env?.[name];
      if (fromEnv !== undefined) return fromEnv;
      throw new VariableNotFoundError(name);
    },
  };
}
