/**
 * The flow_tts WebSocket end to end through the real edge: audio in (a tone), the default providers (OpenAI
 * realtime transcription, OpenAI speech) played by local fakes, a real flow run against the local model server.
 */
import t from 'tap';
import { uwsIsNative } from '../src/edge/uws-native.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { flowId, startVoiceStack, VoiceClient } from './support/voice-stack.js';

// Both edge adapters serve the socket (uWS only where its native build loads).
const adapters = uwsIsNative ? ['node', 'uws'] : ['node'];

for (const adapter of adapters) t.test(`one full turn on ${adapter}: transcript, the run, the answer spoken sentence by sentence, then done, in order`, async (t) => {
  const stack = await startVoiceStack({ config: { HTTP_SERVER: adapter } });
  t.equal(stack.server.adapter, adapter);
  t.teardown(() => stack.close());
  const id = await flowId(stack, chatModelFlow('Voice chat', 'LanguageModelComponent', openaiModelTemplate()));
  stack.transcription.script.push('what is the weather');
  stack.model.script({ text: 'It is sunny today. Take a hat!' });
  const client = await VoiceClient.open(`${stack.voiceUrl}/${id}/voice-session-1?x-api-key=${stack.server.apiKey}`);
  t.teardown(() => client.close());
  client.speak();

  await client.next('input_audio_buffer.speech_started');
  const completed = await client.next('conversation.item.input_audio_transcription.completed');
  t.equal(completed.transcript, 'what is the weather');
  const progress = await client.next('flow.build.progress', (e) => e.data.event === 'add_message' && e.data.data.sender === 'User');
  t.equal(progress.data.data.text, 'what is the weather', 'the run took the transcript as its chat input');
  const firstAudio = await client.next('response.audio.delta');
  t.ok(Buffer.from(firstAudio.delta, 'base64').length > 0, 'audio bytes');
  const audioDone = await client.next('response.audio.done');
  const done = await client.next('response.done');
  t.equal(done.response.status, 'completed');
  t.equal(audioDone.response_id, done.response.id);
  t.equal(firstAudio.response_id, done.response.id);

  const buildEvents = client.events.filter((e) => e.type === 'flow.build.progress').map((e) => e.data.event);
  t.same([buildEvents[0], buildEvents[1], buildEvents.at(-1)], ['vertices_sorted', 'build_start', 'end'], "the build's events, as the editor's build streams them");
  t.equal(buildEvents.filter((e) => e === 'end_vertex').length, 3, 'one end_vertex per component');
  const types = client.events.map((e) => e.type);
  const last = (type: string) => types.lastIndexOf(type);
  t.ok(types.indexOf('conversation.item.input_audio_transcription.completed') < types.indexOf('flow.build.progress'), 'the transcript comes before the run');
  t.ok(last('response.audio.delta') < last('response.audio.done') && last('response.audio.done') < last('response.done'), 'audio, audio done, response done');
  t.same(
    stack.speech.requests.map((r) => r.body.input),
    ['It is sunny today.', 'Take a hat!'],
    'each sentence is spoken as it completes',
  );
  t.equal(stack.speech.requests[0].path, '/v1/audio/speech');
  t.equal(stack.speech.requests[0].body.response_format, 'pcm');
  t.equal(stack.transcription.realtime[0].headers.authorization, 'Bearer sk-voice', "the user's stored OPENAI_API_KEY");
  const audioBytes = client.events.filter((e) => e.type === 'response.audio.delta').reduce((sum, e) => sum + Buffer.from(e.delta, 'base64').length, 0);
  t.equal(audioBytes, 2 * stack.speech.chunksPerSentence * 960, 'every PCM byte the speech server sent reached the client');
  // The conversation is the session's messages.
  const messages = await (await stack.server.request(`/api/v1/monitor/messages?flow_id=${id}&session_id=voice-session-1`)).json();
  t.same(messages.map((m: any) => [m.sender, m.text]), [['User', 'what is the weather'], ['Machine', 'It is sunny today. Take a hat!']]);
});
