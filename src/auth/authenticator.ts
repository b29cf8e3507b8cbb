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
    'Since v1.5, FLOWSVC_AUTO_LOGIN requires a valid API key. Set FLOWSVC_SKIP_AUTH_AUTO_LOGIN=true to skip this check. Please update your authentication method.',
  keyRequired: 'An API key must be passed as query or header',
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

export function createAuthenticator(deps: AuthDeps): Authenticator {
  const { config, store } = deps;
  // Every request passes here: async functions below `return await` a promise rather than return it, which settles
  // their own promise a tick sooner (V8 resolves a promise with a promise through two extra jobs).

  async function principalOf(userId: string, via: Principal['via']): Promise<Principal | undefined> {
    // Every request comes here: the shared copy spares a decode per request (it is only read).
    const user = await store.users.getShared(userId);
    if (!user || !user.is_active) return undefined;
    return { userId: user.id, username: user.username, isSuperuser: user.is_superuser, via };
  }

  async function byApiKey(key: string): Promise<Principal | undefined> {
    const userId = config.API_KEY !== undefined && key === config.API_KEY ? deps.superuserId() : (await deps.apiKeys.check(key))?.user_id;
    return userId === undefined ? undefined : await principalOf(userId, 'api-key');
  }

  /** Langflow's api_key_security; `refuse` picks the error class (403 on v1, 401 on v2). */
  async function apiKeySecurity(credentials: Credentials, refuse: (message: string) => AppError): Promise<Principal> {
    if (credentials.apiKey) {
      const principal = await byApiKey(credentials.apiKey);
      if (!principal) throw refuse(AUTH_MESSAGES.invalidKey);
      return principal;
    }
    if (config.AUTO_LOGIN) {
      if (config.SKIP_AUTH_AUTO_LOGIN) return (await principalOf(deps.superuserId(), 'auto-login'))!;
      throw refuse(AUTH_MESSAGES.autoLoginNeedsKey);
    }
    throw refuse(AUTH_MESSAGES.keyRequired);
  }

  async function currentUser(credentials: Credentials): Promise<Principal> {
    if (credentials.bearer && !credentials.apiKey) {
      const userId = await deps.tokens.verify(credentials.bearer, 'access');
      const principal = userId ? await principalOf(userId, 'jwt') : undefined;
      if (!principal) throw new UnauthenticatedError(AUTH_MESSAGES.invalidToken);
      return principal;
    }
    return await apiKeySecurity(credentials, (m) => new ForbiddenError(m));
  }

  return {
    async authenticate(mode: AuthMode, credentials: Credentials): Promise<Principal | null> {
      switch (mode) {
        case 'none':
          return null;
        case 'api-key':
          return await apiKeySecurity(credentials, (m) => new ForbiddenError(m));
        case 'api-key-v2':
          return await apiKeySecurity(credentials, (m) => new UnauthenticatedError(m));
        case 'user':
          return await currentUser(credentials);
        case 'superuser': {
          const principal = await currentUser(credentials);
          if (!principal.isSuperuser) throw new ForbiddenError(AUTH_MESSAGES.notSuperuser);
          return principal;
        }
        case 'webhook': {
          // Langflow's webhook check: a key is required when enabled, with no auto-login fallback.
          if (!config.WEBHOOK_AUTH_ENABLE) return null;
          if (!credentials.apiKey) throw new ForbiddenError(AUTH_MESSAGES.webhookKeyRequired);
          const principal = await byApiKey(credentials.apiKey);
          if (!principal) throw new ForbiddenError(AUTH_MESSAGES.webhookInvalidKey);
          return principal;
        }
      }
    },
  };
}
