/** The official `openai` client pointed at the service's responses endpoint, as a developer would set it up. */
import OpenAI from 'openai';
import { HEADER_KEY } from './model-flows.js';
import type { TestServer } from './server.js';

/**
 * `baseURL` = `<service>/api/v1`; the service key goes in `x-api-key` (the client's own `apiKey` is a
 * placeholder it sends as a Bearer header, which the service ignores). No retries: a failing run is not repeated.
 */
export function openaiClient(server: TestServer, options: { key?: string | null; headers?: Record<string, string>; apiKey?: string; query?: Record<string, string> } = {}): OpenAI {
  const key = options.key === undefined ? server.apiKey : options.key;
  return new OpenAI({
    baseURL: `${server.url}/api/v1`,
    apiKey: options.apiKey ?? 'placeholder-key',
    maxRetries: 0,
    defaultHeaders: { ...(key !== null ? { 'x-api-key': key } : {}), [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header', ...options.headers },
    defaultQuery: options.query,
  });
}
