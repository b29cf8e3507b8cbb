/**
 * Where a chat-completions call goes and what it sends besides the body: the parsed URL, the transport, and the
 * headers, built once per model value so a call only adds the body length. The key lives only in these headers,
 * which stay inside src/components/models (a model value in a run reply never shows them).
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { urlToHttpOptions } from 'node:url';

/**
 * One keep-alive agent per protocol: an Agent pools its sockets per origin (host:port), so every model server gets
 * its own pool and a run after the first reuses a warm connection instead of paying TCP (and TLS) set-up before
 * its first token. No socket cap: each open stream holds one socket for its whole reply.
 */
const agents = { http: new HttpAgent({ keepAlive: true }), https: new HttpsAgent({ keepAlive: true }) };

export interface ChatEndpoint {
  /** Langflow's provider name, for error messages. */
  provider: string;
  /** The API root the node or environment named, for "Could not reach" messages. */
  baseURL: string;
  /** `<baseURL>/chat/completions`. */
  url: URL;
  /**
   * The request head's fields as node:http's flat list (`[name, value, name, value, ...]`), Host included: a
   * request given a list writes it as is, where an object of headers is copied into a per-request table of
   * [name, value] pairs that an open stream keeps (~0.5 KB). The caller adds Content-Length.
   */
  head: readonly string[];
  /** Starts a request; its reply comes as the request's 'response' event. */
  send(options: RequestOptions): ClientRequest;
}

// The SDK sent "ai/<v> ai-sdk/openai/<v> ... runtime/node.js/<v>"; servers only log it, so we name ourselves.
const USER_AGENT = `flowsvc runtime/node.js/${process.version}`;

/**
 * `sendKeyAlways`: OpenAI's client always sends `Authorization: Bearer <key>`; the OpenAI-compatible client
 * (Google, Ollama) only when there is a key (Ollama has none). Undefined for a base URL that is not http(s):
 * such a model keeps the SDK path, which reports the bad URL as it always did.
 */
export function chatEndpoint(provider: string, baseURL: string, apiKey: string, sendKeyAlways: boolean): ChatEndpoint | undefined {
  // Every run builds its model value anew; the endpoint behind it is the same, so it is built once and shared
  // (no URL parse on the way to the first token, no copy per open stream).
  const key = `${provider}\n${baseURL}\n${apiKey}`;
  if (cache.has(key)) return cache.get(key);
  if (cache.size >= MAX_CACHED) cache.clear();
  const endpoint = newEndpoint(provider, baseURL, apiKey, sendKeyAlways);
  cache.set(key, endpoint);
  return endpoint;
}

/** Bounded: keys change only when a flow's base URL or key does; a service sees a handful. */
const MAX_CACHED = 256;
const cache = new Map<string, ChatEndpoint | undefined>();

function newEndpoint(provider: string, baseURL: string, apiKey: string, sendKeyAlways: boolean): ChatEndpoint | undefined {
  const url = URL.canParse(`${baseURL}/chat/completions`) ? new URL(`${baseURL.replace(/\/+$/, '')}/chat/completions`) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return undefined;
  // Host as node:http would write it: the URL's host (IPv6 in brackets, the port unless the scheme's default).
  const head = ['host', url.host, 'content-type', 'application/json', 'user-agent', USER_AGENT];
  if (apiKey || sendKeyAlways) head.push('authorization', `Bearer ${apiKey}`);
  const secure = url.protocol === 'https:';
  const agent = secure ? agents.https : agents.http;
  const request = secure ? httpsRequest : httpRequest;
  // Plain options (host, port, path) made once: http.request converts a URL on every call otherwise.
  const { protocol, hostname, port, path } = urlToHttpOptions(url);
  const target = { protocol, hostname, port, path, agent };
  return { provider, baseURL, url, head, send: (options) => request({ ...target, ...options }) };
}
