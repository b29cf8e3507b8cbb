/**
 * Streaming a model's reply through /api/v1/run?stream=true, as Langflow's v1 stream shows it: the user message,
 * the AI message (empty), its tokens in order, the final AI message under the same id, then end. Cancelling the
 * client's request aborts the model request in flight.
 */
import t from 'tap';
import { createFlow } from './support/flow-helpers.js';
import type { ModelServer } from './support/model-server.js';
import { chatModelFlow, collect, HEADER_KEY, modelClient, openaiModelTemplate, startModelStack, twoModelChainFlow } from './support/model-flows.js';
import { TEST_API_KEY, type TestServer } from './support/server.js';
import { dechunk, readAfterStall } from './support/stalled-reader.js';
import { within } from './support/within.js';

let model: ModelServer;
let server: TestServer;
let close: () => Promise<void>;

t.before(async () => {
  ({ model, server, close } = await startModelStack());
});
t.teardown(() => close());

t.test('stream=true: add_message (user), add_message (AI, empty), tokens, final add_message with the same id, end', async (t) => {
  const created = await createFlow(server, chatModelFlow('Streaming', 'LanguageModelComponent', openaiModelTemplate()));
  const before = model.chats.length;
  const events = await collect(await modelClient(server).flow(created.id).stream('tell me more', { session_id: 'stream-1' }));

  t.same(events.map((e) => e.event), ['add_message', 'add_message', 'token', 'token', 'token', 'token', 'token', 'add_message', 'end']);
  const [user, placeholder] = events;
  t.same([user.data.sender, user.data.text], ['User', 'tell me more']);
  t.same([placeholder.data.sender, placeholder.data.sender_name, placeholder.data.text, placeholder.data.properties.state], ['Machine', 'AI', '', 'partial']);
  const id = placeholder.data.id;
  t.type(id, 'string');
  const tokens = events.filter((e) => e.event === 'token');
  t.same(tokens.map((e) => e.data.chunk), ['You', ' said:', ' tell', ' me', ' more'], 'word tokens, in order');
  t.equal(tokens.map((e) => e.data.chunk).join(''), 'You said: tell me more', 'the tokens, in order, make the reply');
  t.ok(tokens.every((e) => e.data.id === id), 'every token names the AI message');
  t.match(tokens[0].data.timestamp, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC$/);

  const final = events[7];
  t.equal(final.data.id, id, 'the final AI message keeps the streamed id');
  t.equal(final.data.text, 'You said: tell me more');
  t.equal(final.data.properties.state, 'complete');
  t.same(final.data.properties.usage, { prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 }, 'usage from the include_usage chunk');

  const result = events[8].data.result.outputs[0].outputs[0].results.message;
  t.equal(result.id, id);
  t.equal(result.text, 'You said: tell me more');

  const stored = await server.services.store.messages.session(created.id, 'stream-1', {});
  t.same(stored.map((m) => [m.sender, m.text, m.id === id]), [['User', 'tell me more', false], ['Machine', 'You said: tell me more', true]], 'the stored AI message has the streamed id');

  const request = model.chats[before].body;
  t.equal(request.stream, true);
  t.same(request.stream_options, { include_usage: true });
});

t.test('a batch run does not stream, whatever the node says; a model not feeding a Chat Output does not stream', async (t) => {
  const batch = await createFlow(server, chatModelFlow('Stream field on', 'LanguageModelComponent', openaiModelTemplate({ stream: true })));
  const before = model.chats.length;
  const response = await modelClient(server).flow(batch.id).run('quiet');
  t.equal(response.chatOutputText(), 'You said: quiet');
  t.notOk(model.chats[before].body.stream, 'the request\'s stream flag (false) overrides the field, as Langflow\'s injected tweak does');
  t.equal(response.outputs[0].outputs[0].results.message.properties.state, 'complete');

  // Chat Input -> LM 1 -> LM 2 -> Chat Output: only LM 2 feeds the Chat Output.
  const chain = twoModelChainFlow('Chain');
  const created = await createFlow(server, chain);
  const start = model.chats.length;
  const events = await collect(await modelClient(server).flow(created.id).stream('chained'));
  const [first, second] = model.chats.slice(start);
  t.notOk(first.body.stream, 'the first model feeds another model: no streaming');
  t.equal(second.body.stream, true);
  t.equal(second.body.messages.at(-1).content, 'You said: chained', 'a model\'s reply reaches the next model as a user turn');
  const ids = new Set(events.filter((e) => e.event === 'token').map((e) => e.data.id));
  t.equal(ids.size, 1, 'tokens of one message only');
  t.equal(events.at(-1)!.data.result.outputs[0].outputs[0].results.message.text, 'You said: You said: chained');
});

t.test('a provider error while streaming ends the stream with an error event naming the component', async (t) => {
  const created = await createFlow(server, chatModelFlow('Streaming error', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ error: { status: 401, message: 'Invalid key.' } });
  const res = await server.request(`/api/v1/run/${created.id}?stream=true`, { method: 'POST', json: { input_value: 'x' }, headers: { 'X-FLOWSVC-GLOBAL-VAR-OPENAIKEY': 'bad' } });
  const frames = (await res.text()).split('\n\n').filter(Boolean).map((f) => JSON.parse(f));
  t.same(frames.map((f) => f.event), ['add_message', 'error']);
  t.match(frames[1].data.error, /Language Model \(LanguageModelComponent-model1\).*OpenAI API error 401.*Invalid key\./);
});

t.test('cancelling mid-stream (the client aborts) aborts the model request in flight', async (t) => {
  const created = await createFlow(server, chatModelFlow('Cancel', 'LanguageModelComponent', openaiModelTemplate()));
  model.script({ tokens: Array.from({ length: 200 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
  const aborted = model.nextAbort();
  const controller = new AbortController();
  const stream = await modelClient(server).flow(created.id).stream('go', { signal: controller.signal, session_id: 'cancel-1' });
  const seen: string[] = [];
  try {
    for await (const event of stream as unknown as AsyncIterable<{ event: string; data: any }>) {
      seen.push(event.event);
      if (event.event === 'token') controller.abort();
    }
  } catch (error) {
    t.equal((error as Error).name, 'AbortError', 'the client stopped reading');
  }
  const request = await aborted;
  t.equal(request.path, '/v1/chat/completions');
  t.ok(request.aborted, 'the model server saw its connection closed before the reply ended');
  t.ok(seen.includes('token'), 'tokens had started');
  t.notOk(seen.includes('end'));
});

t.test('a run without stream=true is cancelled too when its client goes away mid-run (v1 and v2)', async (t) => {
  const created = await createFlow(server, chatModelFlow('Cancel sync', 'LanguageModelComponent', openaiModelTemplate()));
  const leave = async (path: string, body: unknown) => {
    model.script({ tokens: Array.from({ length: 100 }, (_, i) => ` t${i}`), tokenDelayMs: 20 });
    const aborted = model.nextAbort();
    const controller = new AbortController();
    const asked = model.nextChat();
    const headers = { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-from-header' };
    const reply = server.request(path, { method: 'POST', json: body, headers, signal: controller.signal });
    let settled = false;
    reply.then(() => (settled = true), () => (settled = true));
    // Whichever comes first: the model asked (the run now waits on its reply, ~2 s) or the reply (a run that never asked).
    await within(Promise.race([asked, reply.catch(() => undefined)]), `${path}: the run asking its model`);
    t.notOk(settled, `${path}: the run was still waiting on its model`);
    controller.abort();
    await t.rejects(reply, { name: 'AbortError' });
    // The reply takes 2 s when nobody cancels it: waiting longer than that means the run went on.
    const seen = await Promise.race([aborted, new Promise<undefined>((resolve) => setTimeout(resolve, 5_000))]);
    t.ok(seen?.aborted, `${path}: the model server saw its connection closed before the reply ended`);
  };
  await leave(`/api/v1/run/${created.id}`, { input_value: 'go', session_id: 'cancel-sync' });
  await leave('/api/v2/workflows', { flow_id: created.id, inputs: { 'ChatInput-in001.input_value': 'go' } });
});

t.test('a client that stalls while a long reply streams gets every token, in order, once it reads (backpressure)', async (t) => {
  const created = await createFlow(server, chatModelFlow('Stalling reader', 'LanguageModelComponent', openaiModelTemplate()));
  // ~12 MB of frames in one burst, to a socket that does not read: the kernel's buffers fill and the service must
  // hold the rest until the client reads (uWS reports the socket full; the pipe waits for it to drain).
  const count = 100_000;
  model.script({ tokens: Array.from({ length: count }, (_, i) => ` ${i}`) });
  const json = JSON.stringify({ input_value: 'go' });
  const reply = await readAfterStall(
    server.port,
    `POST /api/v1/run/${created.id}?stream=true HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\ncontent-type: application/json\r\n` +
      `x-api-key: ${TEST_API_KEY}\r\nX-FLOWSVC-GLOBAL-VAR-OPENAIKEY: sk-from-header\r\ncontent-length: ${json.length}\r\n\r\n${json}`,
    500,
  );
  t.match(reply.head, /^HTTP\/1\.1 200[^]*transfer-encoding: chunked/i);
  const frames = dechunk(reply.body).split('\n\n').filter(Boolean).map((f) => JSON.parse(f));
  const chunks = frames.filter((f) => f.event === 'token').map((f) => f.data.chunk);
  t.equal(chunks.length, count, 'every token arrived');
  t.ok(chunks.every((chunk, i) => chunk === ` ${i}`), 'in order');
  t.equal(frames.at(-1).event, 'end', 'the stream ends with its end frame');
  t.equal(frames.at(-1).data.result.outputs[0].outputs[0].results.message.text, chunks.join(''));
});
