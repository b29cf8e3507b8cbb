/**
 * Decides who a request acts for, per route auth mode, with Langflow's rules and messages
 * (research: run API section 5). v1 API-key refusals are 403; the v2 API answers 401 (spec part 7).
 */
import type { Config } from '../config.js';
import { ForbiddenError, UnauthenticatedError, type AppError } from '../errors/index.js';
import type { AuthMode } from '../edge/route.js';
import type { ApiKeysService } from '../services/api-keys.service.js';
import type { Store } from '../store/port.js';
import type { Authenticator, Credentials, Principal } from './principal.js';
import type { TokenSigner } from './tokens.js';

export const AUTH_MESSAGES = {
  autoLoginNeedsKey:
    'An API key is required: send it in the x-api-key header or the x-api-key query parameter (bearer tokens are not accepted here). FLOWSVC_SKIP_AUTH_AUTO_LOGIN=true lets requests without a key act as the superuser.',
  keyRequired: 'An API key is required: send it in the x-api-key header or the x-api-key query parameter (bearer tokens are not accepted here).',
  invalidKey: 'Invalid or missing API key',
  invalidToken: 'Could not validate credentials',
  notSuperuser: "The user doesn't have enough privileges",
  webhookKeyRequired: 'API key required when webhook authentication is enabled',
  webhookInvalidKey: 'Invalid API key',
} as const;

export interface AuthDeps {
  config: Config;
  store: Store;
  apiKeys: ApiKeysService;
  tokens: TokenSigner;
  /** The superuser's id, known once start-up has made sure it exists. */
  superuserId: () => string;
}

/** How each kind of route refuses a request (403 on v1, 401 on the v2 API), made once rather than per request. */
const forbidden = (message: string): AppError => new ForbiddenError(message);
const unauthenticated = (message: string): AppError => new UnauthenticatedError(message);

export function createAuthenticator(deps: AuthDeps): Authenticator {
  const { config, store } = deps;
  // Every request passes here. The API-key path chains promises instead of nesting async functions: each
  // suspended async function is a frame and a promise of its own, and four of them were a tenth of what an echo
  // run allocates.

  function principalOf(userId: string, via: Principal['via']): Promise<Principal | undefined> {
    // The shared copy spares a decode per request (it is only read).
    return store.users.getShared(userId).then((user) => (user && user.is_active ? { userId: user.id, username: user.username, isSuperuser: user.is_superuser, via } : undefined));
  }

  function byApiKey(key: string): Promise<Principal | undefined> {
    if (config.API_KEY !== undefined && key === config.API_KEY) return principalOf(deps.superuserId(), 'api-key');
    return deps.apiKeys.check(key).then((record) => (record ? principalOf(record.user_id, 'api-key') : undefined));
  }

  /** Langflow's api_key_security; `refuse` picks the error class (403 on v1, 401 on v2). */
  function apiKeySecurity(credentials: Credentials, refuse: (message: string) => AppError): Promise<Principal> {
    if (credentials.apiKey) {
      return byApiKey(credentials.apiKey).then((principal) => {
        if (!principal) throw refuse(AUTH_MESSAGES.invalidKey);
        return principal;
      });
    }
    if (config.AUTO_LOGIN) {
      if (config.SKIP_AUTH_AUTO_LOGIN) return principalOf(deps.superuserId(), 'auto-login').then((principal) => principal!);
      return Promise.reject(refuse(AUTH_MESSAGES.autoLoginNeedsKey));
    }
    return Promise.reject(refuse(AUTH_MESSAGES.keyRequired));
  }

  async function currentUser(credentials: Credentials): Promise<Principal> {
    if (credentials.bearer && !credentials.apiKey) {
      const userId = await deps.tokens.verify(credentials.bearer, 'access');
      const principal = userId ? await principalOf(userId, 'jwt') : undefined;
      if (!principal) throw new UnauthenticatedError(AUTH_MESSAGES.invalidToken);
      return principal;
    }
    return await apiKeySecurity(credentials, forbidden);
  }

  async function webhook(credentials: Credentials): Promise<Principal | null> {
    // Langflow's webhook check: a key is required when enabled, with no auto-login fallback.
    if (!config.WEBHOOK_AUTH_ENABLE) return null;
    if (!credentials.apiKey) throw new ForbiddenError(AUTH_MESSAGES.webhookKeyRequired);
    const principal = await byApiKey(credentials.apiKey);
    if (!principal) throw new ForbiddenError(AUTH_MESSAGES.webhookInvalidKey);
    return principal;
  }

  async function superuser(credentials: Credentials): Promise<Principal> {
    const principal = await currentUser(credentials);
    if (!principal.isSuperuser) throw new ForbiddenError(AUTH_MESSAGES.notSuperuser);
    return principal;
  }

  return {
    authenticate(mode: AuthMode, credentials: Credentials): Promise<Principal | null> {
      switch (mode) {
        case 'none':
          return NOBODY;
        case 'api-key':
          return apiKeySecurity(credentials, forbidden);
        case 'api-key-v2':
          return apiKeySecurity(credentials, unauthenticated);
        case 'user':
          return currentUser(credentials);
        case 'superuser':
          return superuser(credentials);
        case 'webhook':
          return webhook(credentials);
      }
    },
  };
}

const NOBODY: Promise<null> = Promise.resolve(null);
