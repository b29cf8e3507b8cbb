/**
 * Where a hosted service is reached: its public address, or FLOWSVC_<SERVICE>_BASE_URL when set (tests point it at
 * a local stand-in; an operator at a self-hosted gateway). Read when a request is made, as models read
 * OPENAI_BASE_URL, so a service started before the variable changed still follows it.
 */
export interface ServiceEndpoint {
  /** How errors name the service: "Needle refused the API key (401)". */
  name: string;
  /** FLOWSVC_NEEDLE_BASE_URL, ... */
  baseUrlVariable: string;
  defaultBaseUrl: string;
}

export interface ResolvedBase {
  url: string;
  /**
   * The operator configured this address: the private-network guard lets it through (a stand-in or gateway on the
   * private network is what the setting is for), while every other address still passes the guard.
   */
  configured: boolean;
}

export function baseUrlOf(endpoint: ServiceEndpoint, env: NodeJS.ProcessEnv = process.env): ResolvedBase {
  const configured = env[endpoint.baseUrlVariable]?.trim();
  if (configured) return { url: configured.replace(/\/+$/, ''), configured: true };
  return { url: endpoint.defaultBaseUrl, configured: false };
}

/**
 * True when `url` is on the configured base URL's origin: the only address the guard lets through. The origin, not
 * a path prefix, is what decides where a connection goes.
 */
export function isConfiguredOrigin(url: string, base: ResolvedBase): boolean {
  return base.configured && new URL(url).origin === new URL(base.url).origin;
}
