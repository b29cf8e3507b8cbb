/**
 * Our own chat-completions client (src/components/models/chat-completions/), black-box: flows with OpenAI, Ollama
 * and Google model nodes run over HTTP against the local OpenAI-compatible model server, which records what it
 * was sent and can answer with errors, retry headers, broken or cut-off streams.
 */
import t from 'tap';
import { createServer } from 'node:net';
import { createFlow } from './support/flow-helpers.js';
import { startModelServer, type ModelServer } from './support/model-server.js';
import { chatModelFlow, collect, modelClient } from './support/model-flows.js';
import { startTestServer, type TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;

t.before(async () => {
  model = await startModelServer();
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  await server.close();
  await model.close();
});

/** An OpenAI node pointed at the model server, with a literal key; no retries unless a test asks. */
const openai = (extra: Record<string, unknown> = {}) => ({ model_name: 'gpt-4o-mini', openai_api_base: model.baseURL, api_key: { value: 'sk-test', load_from_db: false }, max_retries: 0, ...extra });

async function openaiFlow(name: string, extra: Record<string, unknown> = {}) {
  return (await createFlow(server, chatModelFlow(name, 'OpenAIModel', openai(extra)))).id;
}

/** A run's failure text: the error detail of a batch run, or the error event of a streamed one. */
async function failure(id: string, stream = false): Promise<string> {
  const res = await server.request(`/api/v1/run/${id}${stream ? '?stream=true' : ''}`, { method: 'POST', json: { input_value: 'hi' } });
  if (!stream) {
    t.equal(res.status, 500, 'the run fails');
    return JSON.stringify(await res.json());
  }
  const frames = (await res.text()).split('\n\n').filter(Boolean).map((frame) => JSON.parse(frame));
  t.equal(frames.at(-1).event, 'error', 'the stream ends with an error event');
  return String(frames.at(-1).data.error);
}

const streamEvents = async (id: string, input: string) => collect(await modelClient(server, {}).flow(id).stream(input));

t.test('streamed: tokens in order, usage from the last chunk, the SDK\'s request body and headers', async (t) => {
  const id = await openaiFlow('stream', { system_message: 'Be short.', temperature: 0.5, seed: 3, max_tokens: 50 });
  model.script({ tokens: ['Hel', 'lo', ' wörld', ' ✓'], usage: { prompt_tokens: 9, completion_tokens: 4 } });
  const before = model.chats.length;
  const events = await streamEvents(id, 'greet');
  t.same(events.filter((e) => e.event === 'token').map((e) => e.data.chunk), ['Hel', 'lo', ' wörld', ' ✓'], 'every token, multi-byte ones whole');
  const message = events.at(-1)!.data.result.outputs[0].outputs[0].results.message;
  t.equal(message.text, 'Hello wörld ✓');
  t.same(message.properties.usage, { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 });

  const request = model.chats[before];
  t.equal(request.path, '/v1/chat/completions');
  t.same(request.body, {
    model: 'gpt-4o-mini',
    max_tokens: 50,
    temperature: 0.5,
    seed: 3,
    messages: [
      { role: 'system', content: 'Be short.' },
      { role: 'user', content: 'greet' },
    ],
    stream: true,
    stream_options: { include_usage: true },
  });
  t.equal(request.headers.authorization, 'Bearer sk-test');
  t.equal(request.headers['content-type'], 'application/json');
  t.equal(request.headers.host, new URL(model.baseURL).host, 'one Host header, the API root\'s host and port');
  t.equal(request.headers['content-length'], String(Buffer.byteLength(JSON.stringify(request.body))), 'the body\'s length in bytes, not chunked');
  t.notOk(request.headers['transfer-encoding']);
  t.notOk(request.aborted, 'the reply was read to its end');
});

t.test('not streamed: the reply and its usage from one JSON body; no stream fields are sent', async (t) => {
  const id = await openaiFlow('batch');
  model.script({ text: 'A whole answer.', usage: { prompt_tokens: 2, completion_tokens: 3 } });
  const before = model.chats.length;
  const response = await modelClient(server, {}).flow(id).run('q');
  t.equal(response.chatOutputText(), 'A whole answer.');
  t.same(response.outputs[0].outputs[0].results.message.properties.usage, { prompt_tokens: 2, completion_tokens: 3, total_tokens: 5 });
  const body = model.chats[before].body;
  t.notOk('stream' in body, 'no stream flag');
  t.notOk('stream_options' in body);
  t.same(body.messages, [{ role: 'user', content: 'q' }]);
});

t.test('OpenAI reasoning models: developer role, no temperature, max_completion_tokens (as the SDK sent)', async (t) => {
  const id = await openaiFlow('reasoning', { model_name: 'o3-mini', system_message: 'Think.', temperature: 0.7, max_tokens: 80 });
  const before = model.chats.length;
  await modelClient(server, {}).flow(id).run('why?');
  const body = model.chats[before].body;
  t.same(body.messages[0], { role: 'developer', content: 'Think.' });
  t.notOk('temperature' in body);
  t.equal(body.max_completion_tokens, 80);
  t.notOk('max_tokens' in body);
});

t.test('401: the provider\'s message and status, not retried', async (t) => {
  const id = await openaiFlow('unauthorized', { max_retries: 3 });
  model.script({ error: { status: 401, message: 'Incorrect API key provided: sk-test.', code: 'invalid_api_key' } });
  const before = model.chats.length;
  const detail = await failure(id);
  t.match(detail, /OpenAI API error 401 \(model gpt-4o-mini\): Incorrect API key provided: sk-test\./);
  t.equal(model.chats.length, before + 1, 'one attempt only');
});

t.test('429 then success: retried after the server\'s retry-after-ms; the stream then carries the reply', async (t) => {
  const id = await openaiFlow('rate limited', { max_retries: 2 });
  model.script({ error: { status: 429, message: 'Rate limit reached', headers: { 'retry-after-ms': '0' } } }, { text: 'second time lucky' });
  const before = model.chats.length;
  const events = await streamEvents(id, 'again');
  t.equal(events.at(-1)!.event, 'end');
  t.equal(events.at(-1)!.data.result.outputs[0].outputs[0].results.message.text, 'second time lucky');
  t.equal(model.chats.length, before + 2, 'two attempts');
});

t.test('500 on every attempt: max_retries + 1 attempts, then the last error', async (t) => {
  const id = await openaiFlow('server error', { max_retries: 2 });
  const boom = (n: number) => ({ error: { status: 500, message: `The server had an error (${n})`, headers: { 'retry-after': '0' } } });
  model.script(boom(1), boom(2), boom(3));
  const before = model.chats.length;
  const detail = await failure(id);
  t.match(detail, /OpenAI API error 500 \(model gpt-4o-mini\): The server had an error \(3\)/);
  t.equal(model.chats.length, before + 3);
});

t.test('an unreachable server: "Could not reach" naming the base URL', async (t) => {
  const port = await freePort();
  const id = await openaiFlow('unreachable', { openai_api_base: `http://127.0.0.1:${port}/v1` });
  t.match(await failure(id), new RegExp(`Could not reach the OpenAI API at http://127.0.0.1:${port}/v1: Cannot connect to API: connect ECONNREFUSED`));
});

t.test('broken streams fail clearly: a chunk that is not JSON, an error object, a cut-off reply', async (t) => {
  const id = await openaiFlow('broken');
  const chunk = (content: string) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content } }] })}\n\n`;
  model.script({ rawStream: `${chunk('part')}data: {"choices": [oops\n\n` });
  t.match(await failure(id, true), /OpenAI model gpt-4o-mini failed: a stream chunk is not JSON: \{"choices": \[oops/);

  model.script({ rawStream: `${chunk('part')}data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n` });
  t.match(await failure(id, true), /failed: the model server sent an error mid-stream: overloaded/);

  model.script({ rawStream: chunk('no') + chunk(' end') });
  t.match(await failure(id, true), /failed: the reply stream ended without \[DONE\]/, 'a body that ends with neither [DONE] nor a finish reason');

  model.script({ tokens: ['a', 'b', 'c', 'd'], cutOffAfter: 2, tokenDelayMs: 5 }); // the pause lets the first tokens leave before the cut
  t.match(await failure(id, true), /failed: the connection to the model server closed mid-reply/);

  model.script({ text: 'fine again' });
  t.equal((await modelClient(server, {}).flow(id).run('x')).chatOutputText(), 'fine again', 'the next call works (no broken socket reused)');
});

t.test('SSE as servers write it: CRLF or CR line ends, comments, event fields, multi-line data, chunks cut anywhere', async (t) => {
  const id = await openaiFlow('sse forms');
  const data = (content: string) => JSON.stringify({ choices: [{ index: 0, delta: { content } }] });
  const finish = JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }], usage: { prompt_tokens: 1, completion_tokens: 5, total_tokens: 6 } });
  const body = [
    '\uFEFF: keep-alive comment\r\n\r\n',
    `event: message\r\nid: 1\r\ndata: ${data('a')}\r\n\r\n`,
    `data: ${data('b')}\r\r`, // CR alone ends lines too
    `data: {"choices": [{"index": 0,\ndata: "delta": {"content": "c"}}]}\n\n`, // one JSON document over two data lines
    `data:${data('d')}\n\n`, // no space after the colon
  ].join('');
  const whole = `${body}data: ${finish}\n\ndata: [DONE]\n\n`;
  // The same bytes cut into pieces of 7 characters: lines, CRLFs and JSON split across reads.
  for (const rawStream of [whole, whole.match(/[\s\S]{1,7}/g)!]) {
    model.script({ rawStream });
    const events = await streamEvents(id, 'forms');
    t.same(events.filter((e) => e.event === 'token').map((e) => e.data.chunk), ['a', 'b', 'c', 'd'], Array.isArray(rawStream) ? 'in pieces' : 'whole');
    t.same(events.at(-1)!.data.result.outputs[0].outputs[0].results.message.properties.usage, { prompt_tokens: 1, completion_tokens: 5, total_tokens: 6 });
  }
});

t.test('a non-streamed reply that is not JSON or has no choices fails clearly', async (t) => {
  const other = await startRawServer('not json at all');
  t.teardown(() => other.close());
  const id = await openaiFlow('garbage', { openai_api_base: `${other.url}/v1` });
  t.match(await failure(id), /OpenAI model gpt-4o-mini failed: the reply is not JSON: not json at all/);
});

t.test('the node timeout aborts the request in flight', async (t) => {
  const id = await openaiFlow('timeout', { timeout: 1 });
  model.script({ tokens: Array.from({ length: 100 }, (_, i) => ` t${i}`), tokenDelayMs: 50 });
  const aborted = model.nextAbort();
  t.match(await failure(id, true), /OpenAI model gpt-4o-mini failed: The model call timed out after 1 s/);
  t.ok((await aborted).aborted, 'the model server saw the request closed');
});

t.test('base URLs: Ollama with or without /v1, OpenAI with a trailing slash, Google from GOOGLE_BASE_URL', async (t) => {
  for (const base of [model.url, model.baseURL, `${model.url}/`]) {
    const id = (await createFlow(server, chatModelFlow(`ollama ${base}`, 'OllamaModel', { base_url: base, model_name: 'llama3.2', stream: true }))).id;
    const before = model.chats.length;
    const events = await streamEvents(id, 'hi llama');
    t.equal(events.at(-1)!.data.result.outputs[0].outputs[0].results.message.text, 'You said: hi llama', base);
    t.equal(model.chats[before].path, '/v1/chat/completions', `${base} reaches /v1/chat/completions`);
    t.notOk(model.chats[before].headers.authorization, 'Ollama sends no key');
    t.same(model.chats[before].body.stream_options, { include_usage: true });
  }

  const slash = await openaiFlow('trailing slash', { openai_api_base: `${model.baseURL}/` });
  const before = model.chats.length;
  await modelClient(server, {}).flow(slash).run('x');
  t.equal(model.chats[before].path, '/v1/chat/completions');

  const previous = process.env.GOOGLE_BASE_URL;
  process.env.GOOGLE_BASE_URL = model.baseURL;
  t.teardown(() => {
    if (previous === undefined) delete process.env.GOOGLE_BASE_URL;
    else process.env.GOOGLE_BASE_URL = previous;
  });
  const google = (await createFlow(server, chatModelFlow('google', 'LanguageModelComponent', { provider: 'Google', model_name: 'gemini-2.0-flash', api_key: { value: 'g-key', load_from_db: false } }))).id;
  const start = model.chats.length;
  t.equal((await modelClient(server, {}).flow(google).run('hi gemini')).chatOutputText(), 'You said: hi gemini');
  t.equal(model.chats[start].headers.authorization, 'Bearer g-key');
  t.equal(model.chats[start].body.model, 'gemini-2.0-flash');
});

/** A port nothing listens on (taken, then released). */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** A server that answers every request 200 with this body. */
async function startRawServer(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer: createHttpServer } = await import('node:http');
  const http = createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(body));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => http.close(() => resolve())) };
}
