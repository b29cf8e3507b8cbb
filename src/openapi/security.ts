/**
 * Security schemes and per-route requirements, named as Langflow's own document names them so that generated
 * clients and Swagger UI's "Authorize" dialog behave the same against either service.
 */
import type { AuthMode } from '../edge/route.js';
import type { SchemaObject, SecurityRequirement } from './types.js';

export const API_KEY_QUERY = 'API key query';
export const API_KEY_HEADER = 'API key header';
export const OAUTH2_PASSWORD = 'OAuth2PasswordBearerCookie';

export const securitySchemes: Record<string, SchemaObject> = {
  [OAUTH2_PASSWORD]: { type: 'oauth2', flows: { password: { tokenUrl: 'api/v1/login', scopes: {} } } },
  [API_KEY_QUERY]: { type: 'apiKey', in: 'query', name: 'x-api-key' },
  [API_KEY_HEADER]: { type: 'apiKey', in: 'header', name: 'x-api-key' },
};

export interface SecurityOptions {
  /** FLOWSVC_WEBHOOK_AUTH_ENABLE: when false the webhook runs as the flow owner and needs no key. */
  webhookAuth: boolean;
}

const apiKey: SecurityRequirement[] = [{ [API_KEY_QUERY]: [] }, { [API_KEY_HEADER]: [] }];
const apiKeyOrToken: SecurityRequirement[] = [{ [OAUTH2_PASSWORD]: [] }, ...apiKey];

/** The alternatives that satisfy a route; undefined for open routes (no lock shown). */
export function securityFor(auth: AuthMode, options: SecurityOptions): SecurityRequirement[] | undefined {
  switch (auth) {
    case 'none':
      return undefined;
    case 'api-key':
    case 'api-key-v2':
      return apiKey;
    case 'webhook':
      return options.webhookAuth ? apiKey : undefined;
    case 'user':
    case 'superuser':
      return apiKeyOrToken;
  }
}
