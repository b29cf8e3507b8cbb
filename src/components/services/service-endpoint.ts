/**
 * Where a hosted service a component calls is, and how long it may take: `FLOWSVC_<SERVICE>_BASE_URL` when set (a
 * local stand-in, a self-hosted gateway), else the service's public address. Read at call time, as the model
 * providers' `<PROVIDER>_BASE_URL` are, so that one setting serves every run without a restart of the flow cache.
 */
import { ComponentError } from '../component.error.js';

export interface ServiceInfo {
  /** The name errors use: "Tavily refused the API key (401)". */
  name: string;
  /** `TAVILY` for FLOWSVC_TAVILY_BASE_URL. */
  setting: string;
  /** The public address, without a trailing slash. */
  defaultBaseUrl: string;
  /** The global variable holding the key when the node's field is empty (a service that takes no key has none). */
  keyVariable?: string;
}

/** A service that takes an API key. */
export type KeyedServiceInfo = ServiceInfo & { keyVariable: string };

export interface ServiceEndpoint {
  baseUrl: string;
  /** The operator chose this address: requests to it skip the private-network guard (a gateway may be local). */
  configured: boolean;
}

/**
 * True when `url` is on the operator's configured base URL's origin: the only address a configured endpoint lets
 * past the guard. The origin, not a path prefix, decides where a connection goes.
 */
export function isConfiguredOrigin(url: URL, endpoint: ServiceEndpoint): boolean {
  return endpoint.configured && url.origin === new URL(endpoint.baseUrl).origin;
}

export const baseUrlSetting = (service: ServiceInfo) => `FLOWSVC_${service.setting}_BASE_URL`;

export function endpointOf(service: ServiceInfo): ServiceEndpoint {
  const setting = baseUrlSetting(service);
  const raw = process.env[setting]?.trim();
  if (!raw) return { baseUrl: service.defaultBaseUrl, configured: false };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ComponentError(`${setting}=${raw} is not a URL; set it to the ${service.name} API's address (http or https) or unset it`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ComponentError(`${setting}=${raw} is not an http or https URL`);
  return { baseUrl: raw.replace(/\/+$/, ''), configured: true };
}

/** FLOWSVC_SERVICE_TIMEOUT_SECONDS: how long one request to a hosted service may take (default 30). */
export const SERVICE_TIMEOUT_SETTING = 'FLOWSVC_SERVICE_TIMEOUT_SECONDS';
const DEFAULT_TIMEOUT_SECONDS = 30;

export function serviceTimeoutSeconds(): number {
  const raw = process.env[SERVICE_TIMEOUT_SETTING]?.trim();
  if (!raw) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0) throw new ComponentError(`${SERVICE_TIMEOUT_SETTING}=${raw} is not a positive number of seconds`);
  return seconds;
}
