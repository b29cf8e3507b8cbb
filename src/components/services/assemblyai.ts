/** AssemblyAI's v2 API as both AssemblyAI components call it: the endpoint, the key, and one authorized request. */
import type { ComponentContext } from '../contract.js';
import type { KeyedServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { callService, type ServiceRequest } from './service-fetch.js';
import { serviceKey } from './service-key.js';

export const ASSEMBLYAI: KeyedServiceInfo = { name: 'AssemblyAI', setting: 'ASSEMBLYAI', defaultBaseUrl: 'https://api.assemblyai.com', keyVariable: 'ASSEMBLYAI_API_KEY' };

export const assemblyKey = (given: string, ctx: Pick<ComponentContext, 'variable'>) => serviceKey(ASSEMBLYAI, given, ctx, { name: 'api_key', displayName: 'Assembly API Key' });

/** One request to `path` (/v2/...), the key in `authorization` as AssemblyAI's SDK sends it; the answer as JSON. */
export async function assemblyCall(key: string, path: string, request: Omit<ServiceRequest, 'url' | 'path'>, ctx: ComponentContext): Promise<Record<string, unknown>> {
  const body = await callService(ASSEMBLYAI, { ...request, path, headers: { ...request.headers, authorization: key } }, ctx);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new ServiceError(`${ASSEMBLYAI.name} answered ${path} with something that is not an object`);
  return body as Record<string, unknown>;
}
