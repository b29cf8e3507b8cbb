/**
 * Where a chat-completions call goes and what it sends besides the body: the parsed URL, the transport, and the
 * headers, built once per model value so a call only adds the body length. The key lives only in these headers,
 * which stay inside src/components/models (a model value in a run reply never shows them).
 */
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';

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
  headers: Record<string, string>;
  send(options: RequestOptions, onResponse: (res: IncomingMessage) => void): ClientRequest;
}

// The SDK sent "ai/<v> ai-sdk/openai/<v> ... runtime/node.js/<v>"; servers only log it, so we name ourselves.
const USER_AGENT = `flowsvc runtime/node.js/${process.version}`;

/**
 * `sendKeyAlways`: OpenAI's client always sends `Authorization: Bearer <key>`; the OpenAI-compatible client
 * (Google, Ollama) only when there is a key (Ollama has none). Undefined for a base URL that is not http(s):
 * such a model keeps the SDK path, which reports the bad URL as it always did.
 */
export function chatEndpoint(provider: string, baseURL: string, apiKey: string, sendKeyAlways: boolean): ChatEndpoint | undefined {
  const url = URL.canParse(`${baseURL}/chat/completions`) ? new URL(`${baseURL.replace(/\/+$/, '')}/chat/completions`) : undefined;
  if (url?.protocol !== 'http:' && url?.protocol !== 'https:') return undefined;
  const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': USER_AGENT };
  if (apiKey || sendKeyAlways) headers.authorization = `Bearer ${apiKey}`;
  const secure = url.protocol === 'https:';
  const agent = secure ? agents.https : agents.http;
  const request = secure ? httpsRequest : httpRequest;
  return { provider, baseURL, url, headers, send: (options, onResponse) => request(url, { ...options, agent }, onResponse) };
}
