/**
 * stream: true on /api/v1/responses: the openai client's `for await` and `responses.stream()` see exactly OpenAI's
 * typed events (created, output item and text deltas, completed); other SSE readers also get the spec's
 * `response.chunk` objects (a delta per token, a last chunk with status completed); the stream ends with [DONE].
 * Tokens leave as they arrive, a client that goes away cancels the run, and a failing run ends in response.failed
 * (and, for other readers, a failed chunk).
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type OpenAI from 'openai';
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import { echoFlow } from './support/langflow-json.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate, startModelStack } from './support/model-flows.js';
import { openaiClient } from './support/responses.js';
import type { TestServer } from './support/server.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;
let client: OpenAI;
let streamingId: string;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
  client = openaiClient(server);
  streamingId = (await createFlow(server, chatModelFlow('Streaming responses', 'LanguageModelComponent', openaiModelTemplate()))).id;
});
t.teardown(() => close());

/** Every SSE message of a raw streamed reply, parsed with eventsource-parser. */
async function sseMessages(res: Response): Promise<EventSourceMessage[]> {
  const messages: EventSourceMessage[] = [];
  const parser = createParser({ onEvent: (message) => messages.push(message) });
  const decoder = new TextDecoder();
  for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) parser.feed(decoder.decode(bytes, { stream: true }));
  return messages;
}

const rawStream = (json: Record<string, unknown>) =>
  server.request('/api/v1/responses', { method: 'POST', json: { stream: true, ...json }, headers: { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' } });

t.test('for await over create({stream: true}): typed events in order, a delta per token, the completed Response', async (t) => {
  const stream = await client.responses.create({ model: streamingId, input: 'stream to me', stream: true });
  const events: any[] = [];
  for await (const event of stream) events.push(event);

  const typed = events;
  t.same(typed.map((e) => e.type), [
    'response.created',
    'response.in_progress',
    'response.output_item.added',
    'response.content_part.added',
    ...Array(5).fill('response.output_text.delta'),
    'response.output_text.done',
    'response.content_part.done',
    'response.output_item.done',
    'response.completed',
  ]);
  t.same(typed.map((e) => e.sequence_number), typed.map((_, i) => i), 'sequence numbers count the typed events');
  const deltas = typed.filter((e) => e.type === 'response.output_text.delta');
  t.same(deltas.map((e) => e.delta), ['You', ' said:', ' stream', ' to', ' me'], 'one delta per model token, in order');
  const created = typed[0].response;
  t.match(created, { object: 'response', status: 'in_progress', model: streamingId, output: [], usage: null });
  const completed = typed.at(-1).response;
  t.equal(completed.id, created.id);
  t.match(completed, { status: 'completed', model: streamingId, previous_response_id: null, usage: { input_tokens: 3, output_tokens: 5, total_tokens: 8 } });
  t.same(completed.output, [{ type: 'message', id: deltas[0].item_id, status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: 'You said: stream to me', annotations: [] }] }]);
  t.equal(events.filter((e) => e.object === 'response.chunk').length, 0, 'no spec chunk reaches the SDK');
  t.match((await server.services.store.responses.get(created.id))?.response, { status: 'completed' }, 'recorded before the end of the stream');
});

t.test('responses.stream(): the helper assembles the same Response from typed events only', async (t) => {
  const seen: string[] = [];
  const types: string[] = [];
  const stream = client.responses
    .stream({ model: streamingId, input: 'helper please' })
    .on('event', (event) => types.push(event.type))
    .on('response.output_text.delta', (event) => seen.push(event.delta));
  const final = await stream.finalResponse();
  t.ok(types.length > 0 && types.every((type) => type.startsWith('response.')), `every event is one of OpenAI's: ${[...new Set(types)].join(', ')}`);
  t.equal(final.output_text, 'You said: helper please');
  t.equal(seen.join(''), 'You said: helper please');
  t.equal(final.status, 'completed');
});

t.test('raw SSE: the spec\'s response.chunk objects, typed events on named frames, then [DONE]', async (t) => {
  const res = await rawStream({ model: streamingId, input: 'raw bytes' });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /^text\/event-stream/);
  const messages = await sseMessages(res);
  t.equal(messages.at(-1)?.data, '[DONE]', 'the stream ends with [DONE]');
  const frames = messages.slice(0, -1).map((m) => ({ event: m.event, data: JSON.parse(m.data) }));
  for (const frame of frames.filter((f) => f.event)) t.equal(frame.data.type, frame.event, `${frame.event}: the event name is the type`);

  const chunks = frames.filter((f) => !f.event).map((f) => f.data);
  const [first] = chunks;
  const last = chunks.at(-1);
  t.match(first, { object: 'response.chunk', model: streamingId, delta: { content: '' }, status: null });
  t.match(first.id, /^resp_/);
  t.type(first.created, 'number');
  t.same(chunks.slice(1, -1).map((c) => c.delta.content), ['You', ' said:', ' raw', ' bytes']);
  t.same([last.delta, last.status], [{}, 'completed'], 'the last chunk: empty delta, status completed');
  t.ok(chunks.every((c) => c.id === first.id && c.created === first.created), 'every chunk names the response');
});

t.test('other OpenAI SDKs, told by their headers, get the typed events without the spec chunks', async (t) => {
  const sdks: Record<string, string>[] = [{ 'user-agent': 'OpenAI/Python 1.99.0' }, { 'x-stainless-lang': 'go' }];
  for (const sdk of sdks) {
    const res = await server.request('/api/v1/responses', {
      method: 'POST',
      json: { model: streamingId, input: 'typed only', stream: true },
      headers: { ...sdk, [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' },
    });
    const messages = await sseMessages(res);
    const label = JSON.stringify(sdk);
    t.equal(messages.at(-1)?.data, '[DONE]', `${label}: ends with [DONE]`);
    t.same(messages.slice(0, -1).filter((m) => !m.event), [], `${label}: no data-only frame`);
    t.same(messages.filter((m) => m.event === 'response.output_text.delta').map((m) => JSON.parse(m.data).delta).join(''), 'You said: typed only');
    t.equal(messages.at(-2)?.event, 'response.completed', `${label}: the last event completes the Response`);
  }
});

t.test('a flow that does not stream tokens sends its reply as one delta at the end', async (t) => {
  const created = await createFlow(server, echoFlow('Echo stream'));
  const messages = await sseMessages(await rawStream({ model: created.id, input: 'all at once' }));
  const chunks = messages.filter((m) => !m.event && m.data !== '[DONE]').map((m) => JSON.parse(m.data));
  t.same(chunks.map((c) => [c.delta.content, c.status]), [['', null], ['all at once', null], [undefined, 'completed']]);
});

// Were the reply buffered, the model would finish before the client saw a token and no abort would come: the
// timeout turns that hang into a failure.
t.test('tokens leave as they arrive; a client that goes away cancels the run', { timeout: 30_000 }, async (t) => {
  model.script({ text: 'a long answer that takes its time to arrive word by word', tokenDelayMs: 150 });
  const aborted = model.nextAbort();
  const stream = await client.responses.create({ model: streamingId, input: 'slow', stream: true });
  let first: string | undefined;
  for await (const event of stream) {
    if (event.type === 'response.output_text.delta') {
      first = event.delta;
      break; // the client stops reading: the openai client aborts the request
    }
  }
  t.equal(first, 'a', 'the first token arrived while the model was still answering');
  const request = await aborted;
  t.ok(request.aborted, 'the model call was cancelled with the run');
});

t.test('a failing run: response.failed for the SDK, as from OpenAI; other readers also get a failed chunk', async (t) => {
  model.script({ error: { status: 400, message: 'model exploded' } });
  const stream = await client.responses.create({ model: streamingId, input: 'boom', stream: true });
  const events: any[] = [];
  for await (const event of stream) events.push(event);
  t.same(events.map((e) => e.type), ['response.created', 'response.in_progress', 'response.failed']);
  t.match(events.at(-1).response, { status: 'failed', error: { code: 'server_error', message: /model exploded/ } });

  model.script({ error: { status: 400, message: 'model exploded again' } });
  const messages = await sseMessages(await rawStream({ model: streamingId, input: 'boom' }));
  t.equal(messages.at(-1)?.data, '[DONE]');
  const last = JSON.parse(messages.at(-2)!.data);
  t.match(last, { object: 'response.chunk', delta: {}, status: 'failed', error: { type: 'processing_error', message: /model exploded again/ } });
  const failed = JSON.parse(messages.find((m) => m.event === 'response.failed')!.data);
  t.match(failed.response, { status: 'failed', error: { code: 'server_error', message: /model exploded again/ }, output: [] });
});
