/**
 * The other speech providers and upstream failures: OpenAI-compatible /v1/audio/transcriptions with our VAD
 * cutting utterances, ElevenLabs speech and its voice list, a failed upstream reported while the socket stays open.
 */
import t from 'tap';
import { tone } from './support/audio-tone.js';
import { voiceSession } from './support/voice-stack.js';

t.test('transcription over HTTP: our VAD cuts the utterance and posts it as WAV (server default by config)', async (t) => {
  const { stack, client } = await voiceSession(t, { config: { VOICE_STT: 'openai-transcriptions' } });
  stack.transcription.script.push('transcribed over http');
  client.speak();
  await client.next('input_audio_buffer.speech_started');
  t.equal((await client.next('conversation.item.input_audio_transcription.completed')).transcript, 'transcribed over http');
  t.equal((await client.next('response.done')).response.status, 'completed');
  t.equal(stack.transcription.files.length, 1, 'one utterance, one file');
  t.ok(stack.transcription.files[0].isWav, 'a WAV file');
  // 300 ms of tone plus the padding before and the quiet after, at 48 000 bytes a second.
  t.ok(stack.transcription.files[0].bytes > 14_400 && stack.transcription.files[0].bytes < 48_000, `${stack.transcription.files[0].bytes} bytes`);
  t.equal(stack.transcription.realtime.length, 0, 'the realtime upstream was not used');
});

t.test('voice.settings switches the providers of one session; commit ends an utterance', async (t) => {
  const { stack, client } = await voiceSession(t);
  client.send({ type: 'voice.settings', stt: 'openai-transcriptions', voice: 'nova' });
  client.audio(tone(300));
  client.send({ type: 'input_audio_buffer.commit' });
  await client.next('conversation.item.input_audio_transcription.completed');
  await client.next('response.done');
  t.equal(stack.transcription.files.length, 1);
  t.equal(stack.speech.requests[0].body.voice, 'nova');
});

t.test('ElevenLabs: enabled by langflow.elevenlabs.config with its voice; voice_ids lists the account voices', async (t) => {
  const { stack, client } = await voiceSession(t);
  const without = await stack.server.request('/api/v1/voice/elevenlabs/voice_ids');
  t.equal(without.status, 200);
  t.match(await without.json(), { error: /ELEVENLABS_API_KEY/ }, "Langflow's error shape without a key");

  client.send({ type: 'langflow.elevenlabs.config', enabled: true, voice_id: 'voice-1' });
  client.speak();
  t.match(await client.next('error'), { code: 'api_key_missing', key_name: 'ELEVENLABS_API_KEY' }, 'the turn says which key is missing');

  await stack.storeVariable('ELEVENLABS_API_KEY', 'el-key');
  t.same(await (await stack.server.request('/api/v1/voice/elevenlabs/voice_ids')).json(), [{ voice_id: 'voice-1', name: 'Rachel' }]);
  client.speak();
  t.equal((await client.next('response.done')).response.status, 'completed');
  const request = stack.speech.requests.at(-1)!;
  t.equal(request.path, '/v1/text-to-speech/voice-1/stream');
  t.equal(request.headers['xi-api-key'], 'el-key');
  t.ok(client.events.some((e) => e.type === 'response.audio.delta'), 'audio from ElevenLabs');
});

t.test('a failed upstream sends an error event and the next utterance is answered', async (t) => {
  const { stack, client } = await voiceSession(t);
  stack.transcription.failNext = true;
  client.speak();
  t.match(await client.next('error'), { code: 'stt_failed', message: /fake upstream failed/ });
  client.speak();
  t.equal((await client.next('response.done')).response.status, 'completed');
  t.equal(client.ws.readyState, client.ws.OPEN);
});

t.test('a failed speech request: an error event, the answer ends failed, the next one is spoken', async (t) => {
  const { stack, client } = await voiceSession(t);
  stack.speech.failNext = true;
  client.speak();
  t.match(await client.next('error'), { code: 'tts_failed', message: /speech server answered 500/ });
  t.equal((await client.next('response.done')).response.status, 'failed');
  client.speak();
  await client.next('response.audio.delta');
  t.equal((await client.next('response.done')).response.status, 'completed');
});
