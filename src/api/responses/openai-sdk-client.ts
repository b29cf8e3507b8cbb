/**
 * Which SSE vocabulary a streamed Response is written in, told from the request's headers.
 *
 * The spec's stream is `response.chunk` objects on data-only frames; OpenAI's SDKs read typed events and yield
 * every data frame they get, so a chunk reaches `for await` as an event OpenAI never documents (its text twice
 * over, beside the typed deltas). No frame can be seen by a raw SSE reader and skipped by the SDKs, so the
 * stream is chosen per client: OpenAI's SDKs announce themselves (the Stainless-generated ones, JS, Python, Go,
 * Java, send `X-Stainless-Lang`; every official one sends a `User-Agent` starting `OpenAI/`) and get only the
 * typed events; any other reader gets both vocabularies, as the spec and OpenAI clients of its own would read them.
 */
export function isOpenAiSdk(headers: Readonly<Record<string, string>>): boolean {
  return headers['x-stainless-lang'] !== undefined || /^openai\//i.test(headers['user-agent'] ?? '');
}
