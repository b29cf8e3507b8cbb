/** AssemblyAI's v2 API as both AssemblyAI components call it: the endpoint, the key, and one authorized request. */
import type { ComponentContext } from '../contract.js';
import { jsonOf, serviceFetch, type ServiceRequest } from './bounded-service-fetch.js';
import { baseUrlOf, type ServiceEndpoint } from './service-endpoint.js';
import { ServiceError } from './service-error.js';
import { serviceKey } from './service-key.js';

export const ASSEMBLYAI: ServiceEndpoint = { name: 'AssemblyAI', baseUrlVariable: 'FLOWSVC_ASSEMBLYAI_BASE_URL', defaultBaseUrl: 'https://api.assemblyai.com' };

export const assemblyKey = (given: string, ctx: Pick<ComponentContext, 'variable'>) =>
  serviceKey(given, { service: ASSEMBLYAI.name, variable: 'ASSEMBLYAI_API_KEY', field: 'api_key', fieldDisplayName: 'Assembly API Key' }, ctx);

/** One request to `path` (/v2/...), the key in `authorization` as AssemblyAI's SDK sends it; the answer as JSON. */
export async function assemblyCall(key: string, path: string, request: Omit<ServiceRequest, 'url'>, ctx: ComponentContext): Promise<Record<string, unknown>> {
  const base = baseUrlOf(ASSEMBLYAI);
  const response = await serviceFetch(ASSEMBLYAI.name, base, { ...request, url: `${base.url}${path}`, headers: { ...request.headers, authorization: key } }, ctx);
  const body = jsonOf(ASSEMBLYAI.name, response);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ServiceError(`${ASSEMBLYAI.name} answered ${path} with something that is not an object`);
  return body as Record<string, unknown>;
}
