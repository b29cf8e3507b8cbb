/** Who a request acts for, once authenticated. */
export interface Principal {
  userId: string;
  username: string;
  isSuperuser: boolean;
  via: 'api-key' | 'jwt' | 'auto-login' | 'webhook-owner';
}

/** Credentials as found on a request, before any check. */
export interface Credentials {
  apiKey?: string;
  bearer?: string;
}

/** The edge asks this to turn credentials into a principal for a route's auth mode. */
export interface Authenticator {
  authenticate(mode: import('../edge/route.js').AuthMode, credentials: Credentials): Promise<Principal | null>;
}
