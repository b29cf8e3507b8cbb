/**
 * API Request: one HTTP call; the answer as Data `{source, status_code, response_headers, result}` where `result`
 * is the parsed JSON body, else its text (base64 for a binary body). An HTTP error status is an answer, not a
 * failure; a connection failure or a timeout is a ComponentError naming the URL.
 */
import { createData, isData } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, choice, handle, int, table, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { fetchWithin, headerMap, isTextual, normalizeUrl } from '../shared/http-fetch.js';

const METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'] as const;

export const apiRequest = defineComponent({
  type: 'APIRequest',
  version: 1,
  displayName: 'API Request',
  description: 'Make HTTP requests using URL or cURL commands.',
  category: 'data',
  icon: 'Globe',
  fields: {
    url_input: text({ displayName: 'URL', info: 'Enter the URL for the request.', toolMode: true }),
    method: choice({ displayName: 'Method', info: 'The HTTP method to use.', options: METHODS }),
    query_params: handle({ displayName: 'Query Parameters', info: 'The query parameters to append to the URL.', inputTypes: ['Data'], advanced: true }),
    body: table({ displayName: 'Body', info: 'The body to send with the request as a dictionary (for POST, PATCH, PUT).', inputTypes: ['Data'], advanced: true }),
    headers: table({ displayName: 'Headers', info: 'The headers to send with the request', value: [{ key: 'User-Agent', value: 'Langflow/1.0' }], inputTypes: ['Data'], advanced: true }),
    timeout: int({ displayName: 'Timeout', info: 'The timeout to use for the request.', value: 30, min: 0, advanced: true }),
    follow_redirects: bool({ displayName: 'Follow Redirects', info: 'Whether to follow http redirects.', value: true, advanced: true }),
    include_httpx_metadata: bool({
      displayName: 'Include HTTPx Metadata',
      info: 'Include properties such as headers, status_code, response_headers, and redirection_history in the output.',
      advanced: true,
    }),
  },
  outputs: [{ name: 'data', displayName: 'API Response', types: ['Data'], method: 'make_api_request' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const url = withQuery(normalizeUrl(inputs.url_input, 'Field "URL" (url_input)'), inputs.query_params);
    const headers = headerMap(inputs.headers);
    const body = bodyOf(inputs.body);
    const sendsBody = inputs.method !== 'GET' && (Object.keys(body).length > 0 || inputs.method !== 'DELETE');
    if (inputs.method === 'GET' && Object.keys(body).length > 0) throw new ComponentError('Field "Body" (body): a GET request cannot carry a body; use Query Parameters or another method');
    if (sendsBody && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    const response = await fetchWithin(
      url,
      { method: inputs.method, headers, body: sendsBody ? JSON.stringify(body) : undefined, redirect: inputs.follow_redirects ? 'follow' : 'manual' },
      inputs.timeout,
      ctx.signal,
      ctx.network,
    );
    const result: Record<string, unknown> = {
      source: url,
      status_code: response.status,
      response_headers: Object.fromEntries([...response.headers].map(([k, v]) => [k.toLowerCase(), v])),
      result: decodeBody(response.body, response.headers.get('content-type') ?? ''),
    };
    if (inputs.include_httpx_metadata) result.headers = headers;
    return { data: createData(result) };
  },
});

function decodeBody(bytes: Uint8Array, contentType: string): unknown {
  if (!isTextual(contentType)) return Buffer.from(bytes).toString('base64');
  const text = new TextDecoder('utf-8').decode(bytes);
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** Body rows `{key, value}` as an object; string values holding JSON are sent as that JSON (Langflow does so). */
function bodyOf(rows: Record<string, unknown>[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const row of rows) {
    if (typeof row.key !== 'string' || !('value' in row)) continue;
    body[row.key] = parseJsonString(row.value);
  }
  return body;
}

function parseJsonString(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

function withQuery(url: string, params: unknown): string {
  if (params === undefined || params === null || params === '') return url;
  const target = new URL(url);
  const entries =
    typeof params === 'string'
      ? [...new URLSearchParams(params)]
      : Object.entries(isData(params) ? params.data : typeof params === 'object' ? (params as Record<string, unknown>) : {}).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)] as const);
  for (const [key, value] of entries) target.searchParams.set(key, value);
  return target.href;
}
