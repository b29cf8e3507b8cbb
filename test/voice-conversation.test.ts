/**
 * A voice conversation over several turns: Memory sees the earlier turns, speech over an answer stops it
 * (barge-in), and a client that goes away stops the run and the upstream requests behind it.
 */
import t from 'tap';
import { chatModelFlow, memoryChatbotFlow, openaiModelTemplate } from './support/model-flows.js';
import { tone } from './support/audio-tone.js';
import { flowId, startVoiceStack, VoiceClient, voiceSession } from './support/voice-stack.js';

/** A reply long enough to be still streaming when its first sentence is spoken. */
const LONG_REPLY = { text: 'One. Two. Three. Four. Five. Six. Seven. Eight.', tokenDelayMs: 150 };

t.test('two turns: the second run sees the first through Memory', async (t) => {
  const { stack, client } = await voiceSession(t, { flow: memoryChatbotFlow(), path: '/memory-session' });
  stack.transcription.script.push('my name is Ada', 'what is my name');

  client.speak();
  t.equal((await client.next('response.done')).response.status, 'completed');
  client.speak();
  t.equal((await client.next('conversation.item.input_audio_transcription.completed')).transcript, 'what is my name');
  t.equal((await client.next('response.done')).response.status, 'completed');

  t.equal(stack.model.chats.length, 2);
  const system = JSON.stringify(stack.model.chats[1].body.messages[0]);
  t.match(system, /my name is Ada/, 'the first question is in the second run\'s memory');
  t.match(system, /You said: my name is Ada/, 'and so is the first answer');
  t.notMatch(JSON.stringify(stack.model.chats[0].body.messages[0]), /You said/, 'the first run had no answer in its memory yet');
});

t.test('barge-in: speech during the answer stops its speech and cancels its run; the next utterance is answered', async (t) => {
  const { stack, client } = await voiceSession(t);
  stack.model.script(LONG_REPLY);
  stack.transcription.script.push('tell me a long story', 'stop, something else');
  const modelAbort = stack.model.nextAbort();

  client.speak();
  const first = await client.next('response.audio.delta');
  client.audio(tone(100));
  await client.next('input_audio_buffer.speech_started');
  const cancelled = await client.next('response.done');
  t.same(cancelled.response, { id: first.response_id, status: 'cancelled' });
  t.equal((await modelAbort).aborted, true, 'the model request behind the answer was closed');
  const spokenBefore = stack.speech.requests.length;
  t.ok(spokenBefore < 8, 'not every sentence was spoken');

  // The rest of the utterance: quiet, then an answer to it.
  client.speak();
  await client.next('conversation.item.input_audio_transcription.completed', (e) => e.transcript === 'stop, something else');
  const next = await client.next('response.done');
  t.equal(next.response.status, 'completed');
  t.not(next.response.id, first.response_id);
  t.equal(client.events.filter((e) => e.type === 'response.audio.delta' && e.response_id === first.response_id && client.events.indexOf(e) > client.events.indexOf(cancelled)).length, 0, 'no audio of the cancelled answer after its end');
});

t.test('a client gone mid-answer: the model and speech servers see their requests closed, the upstream socket ends', async (t) => {
  const stack = await startVoiceStack();
  t.teardown(() => stack.close());
  const id = await flowId(stack, chatModelFlow('Voice chat', 'LanguageModelComponent', openaiModelTemplate()));
  stack.model.script(LONG_REPLY);
  // Each sentence's audio takes a while: the speech request is open when the client goes.
  stack.speech.chunkDelayMs = 100;
  stack.speech.chunksPerSentence = 20;
  const client = await VoiceClient.open(`${stack.voiceUrl}/${id}?x-api-key=${stack.server.apiKey}`);
  const modelAbort = stack.model.nextAbort();
  const speechAbort = stack.speech.nextAbort();
  const upstreamClosed = stack.transcription.nextRealtimeClose();

  client.speak();
  await client.next('response.audio.delta');
  client.ws.terminate();
  t.equal((await modelAbort).aborted, true, 'the model request was closed');
  t.equal((await speechAbort).aborted, true, 'the speech request was closed');
  await upstreamClosed;
  t.equal(stack.transcription.realtime[0].closed, true, 'the realtime transcription connection was closed');
  // The service goes on: a new session works.
  const again = await VoiceClient.open(`${stack.voiceUrl}/${id}?x-api-key=${stack.server.apiKey}`);
  t.teardown(() => again.close());
  stack.speech.chunkDelayMs = 0;
  stack.speech.chunksPerSentence = 2;
  again.speak();
  t.equal((await again.next('response.done')).response.status, 'completed');
});
