/**
 * What the voice socket refuses, each with a clear error event: a session it cannot open (no credentials, no
 * key, an unknown flow, another user's flow) ends with a close code; a bad frame (not JSON, an unknown type,
 * huge base64, binary) gets an error event and the session goes on. Nothing crashes the service.
 */
import t, { type Test } from 'tap';
import { SERVABLE_ADAPTERS } from './support/adapters.js';
import { secondUser } from './support/flow-helpers.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { flowId, startVoiceStack, VoiceClient, voiceSession, type VoiceStack } from './support/voice-stack.js';

const POLICY_VIOLATION = 1008;

async function refusal(t: Test, url: string, code: string, firstFrame?: unknown): Promise<any> {
  const client = new VoiceClient(url);
  if (firstFrame) {
    await client.opened;
    client.send(firstFrame);
  }
  const error = await client.next('error');
  t.equal(error.code, code);
  t.type(error.message, 'string');
  t.ok(error.message.length > 0, 'a message says why');
  const closed = await client.closed;
  t.equal(closed.code, POLICY_VIOLATION);
  t.equal(closed.reason, code);
  return error;
}

async function stillServes(t: Test, stack: VoiceStack): Promise<void> {
  t.equal((await stack.server.request('/health')).status, 200, 'the service still answers');
}

t.test('sessions refused', async (t) => {
  const stack = await startVoiceStack({ keys: false });
  t.teardown(() => stack.close());
  const id = await flowId(stack, chatModelFlow('Voice chat', 'LanguageModelComponent', openaiModelTemplate()));
  const key = stack.server.apiKey;

  t.test('no credentials (then a first frame that is not voice.auth), or a wrong key', async (t) => {
    await refusal(t, `${stack.voiceUrl}/${id}`, 'langflow_auth', { type: 'input_audio_buffer.commit' });
    await refusal(t, `${stack.voiceUrl}/${id}`, 'langflow_auth', 'not json');
    await refusal(t, `${stack.voiceUrl}/${id}`, 'langflow_auth', { type: 'voice.auth', api_key: 'sk-wrong' });
    await refusal(t, `${stack.voiceUrl}/${id}?x-api-key=sk-wrong`, 'langflow_auth');
    await stillServes(t, stack);
  });

  t.test('credentials in a first voice.auth frame admit the session', async (t) => {
    const client = await VoiceClient.open(`${stack.voiceUrl}/${id}`);
    t.teardown(() => client.close());
    client.send({ type: 'voice.auth', api_key: key });
    // Admitted, then refused for the key the next step needs: proof the credentials were taken.
    t.equal((await client.next('error')).code, 'api_key_missing');
  });

  t.test('no OPENAI_API_KEY: the error names it', async (t) => {
    const error = await refusal(t, `${stack.voiceUrl}/${id}?x-api-key=${key}`, 'api_key_missing');
    t.equal(error.key_name, 'OPENAI_API_KEY');
  });

  t.test('an unknown flow', async (t) => {
    await refusal(t, `${stack.voiceUrl}/00000000-0000-4000-8000-000000000000?x-api-key=${key}`, 'flow_not_found');
  });

  t.test("another user's flow is not found for them, and nothing runs", async (t) => {
    const other = await secondUser(stack.server);
    await stack.storeVariable('OPENAI_API_KEY', 'sk-voice');
    await refusal(t, `${stack.voiceUrl}/${id}?x-api-key=${other.key}`, 'flow_not_found');
    t.equal(stack.model.chats.length, 0);
    t.equal(stack.transcription.realtime.length, 0, 'no upstream was opened');
  });

  t.test('a key sent as a request global variable header is used', async (t) => {
    const client = await VoiceClient.open(`${stack.voiceUrl}/${id}?x-api-key=${key}`, { 'x-flowsvc-global-var-openai-api-key': 'sk-from-request' });
    t.teardown(() => client.close());
    client.speak();
    await client.next('conversation.item.input_audio_transcription.completed');
    t.equal(stack.transcription.realtime.at(-1)!.headers.authorization, 'Bearer sk-from-request');
  });
});

t.test('bad frames: an error event each, and the session goes on', async (t) => {
  const { stack, client } = await voiceSession(t);

  client.send('this is not json {');
  t.match(await client.next('error'), { code: 'invalid_frame', message: /not JSON/ });
  client.send({ type: 'response.create' });
  t.match(await client.next('error'), { code: 'invalid_frame', message: /Unknown frame type "response.create"/ });
  client.send({ no: 'type' });
  t.match(await client.next('error'), { code: 'invalid_frame', message: /Unknown frame type/ });
  client.send({ type: 'input_audio_buffer.append', audio: 'A'.repeat(1_200_000) });
  t.match(await client.next('error'), { code: 'invalid_frame', message: /audio must be at most/ });
  client.send({ type: 'input_audio_buffer.append', audio: 42 });
  t.match(await client.next('error'), { code: 'invalid_frame', message: /audio/ });
  client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
  t.match(await client.next('error'), { code: 'invalid_frame', message: /JSON text/ });
  t.equal(stack.transcription.realtime.length, 0, 'nothing reached the transcription upstream');

  // Still a working session.
  client.speak();
  t.equal((await client.next('response.done')).response.status, 'completed');
  await stillServes(t, stack);
});

t.test('a frame past the socket limit closes that connection only', async (t) => {
  const { stack, client } = await voiceSession(t);
  client.send({ type: 'input_audio_buffer.append', audio: 'A'.repeat(3 * 1024 * 1024) });
  const closed = await client.closed;
  t.ok([1006, 1009].includes(closed.code), `closed (${closed.code})`);
  await stillServes(t, stack);
});

for (const adapter of SERVABLE_ADAPTERS) {
  t.test(`${adapter}: ids in the path past the id bound are refused saying so, before any look-up`, async (t) => {
    const stack = await startVoiceStack({ config: { HTTP_SERVER: adapter } });
    t.teardown(() => stack.close());
    const id = await flowId(stack, chatModelFlow('Voice bounds', 'LanguageModelComponent', openaiModelTemplate()));
    const key = `x-api-key=${stack.server.apiKey}`;
    const toolUrl = stack.voiceUrl.replace(/flow_tts$/, 'flow_as_tool');
    const cases = [
      [`${stack.voiceUrl}/${'f'.repeat(2_100)}?${key}`, /flow id in the path must be at most 400 characters/],
      [`${stack.voiceUrl}/${'f'.repeat(5_000)}?${key}`, /flow id/],
      [`${stack.voiceUrl}/${'f'.repeat(5_000)}`, /flow id/],
      [`${stack.voiceUrl}/${id}/${'s'.repeat(2_100)}?${key}`, /session id in the path must be at most 400 characters/],
      [`${toolUrl}/${'f'.repeat(2_100)}?${key}`, /flow id/],
    ] as const;
    for (const [url, message] of cases) {
      const error = await refusal(t, url, 'invalid_path');
      t.match(error.message, message);
    }
    t.equal(stack.transcription.realtime.length, 0, 'no upstream was opened');
    const client = await VoiceClient.open(`${stack.voiceUrl}/${id}/${'s'.repeat(400)}?${key}`);
    t.teardown(() => client.close());
    client.speak();
    t.equal((await client.next('response.done')).response.status, 'completed', 'ids at the bound still work');
    await stillServes(t, stack);
  });
}
