/**
 * Backpressure of a spoken answer: once the client's socket says it is full, the turn stops pulling audio from the
 * speech provider (so the provider's reply waits upstream, not in the service) until the socket has drained.
 */
import t from 'tap';
import type { EdgeSocket } from '../src/edge/socket-route.js';
import type { TtsProvider } from '../src/services/voice/speech-port.js';
import { prepareVoiceRun } from '../src/services/voice/voice-run.js';
import { VoiceTurn } from '../src/services/voice/voice-turn.js';
import { chatModelFlow, openaiModelTemplate } from './support/model-flows.js';
import { flowId, startVoiceStack } from './support/voice-stack.js';

t.test('a full client socket pauses the speech stream until it drains', async (t) => {
  const stack = await startVoiceStack();
  t.teardown(() => stack.close());
  const { services } = stack.server;
  const id = await flowId(stack, chatModelFlow('Voice chat', 'LanguageModelComponent', openaiModelTemplate()));
  const flow = await services.flows.runnable(services.superuserId, id);

  const CHUNKS = 5;
  let pulled = 0;
  const tts: TtsProvider = {
    keyName: 'OPENAI_API_KEY',
    async *speak() {
      for (let i = 0; i < CHUNKS; i++) {
        pulled++;
        yield new Uint8Array(960);
      }
    },
  };
  const frames: any[] = [];
  let full = true;
  let release!: () => void;
  const drained = new Promise<void>((resolve) => (release = resolve));
  let waiting!: () => void;
  const turnWaits = new Promise<void>((resolve) => (waiting = resolve));
  const socket: EdgeSocket = {
    isOpen: true,
    send(text) {
      frames.push(JSON.parse(text));
      return !full;
    },
    drained() {
      waiting();
      return drained;
    },
    close() {},
  };

  const run = prepareVoiceRun(services.runner, { flow, userId: services.superuserId, input: 'hi', requestVariables: {} });
  const turn = new VoiceTurn(socket, services.runs, run, { tts, key: 'sk' });
  await turnWaits;
  t.equal(pulled, 1, 'no more audio is read while the client is full');
  t.equal(frames.filter((f) => f.type === 'response.audio.delta').length, 1);
  full = false;
  release();
  await turn.done;
  t.equal(pulled, CHUNKS, 'the rest is read once it drained');
  t.equal(frames.filter((f) => f.type === 'response.audio.delta').length, CHUNKS);
  t.same(frames.at(-1), { type: 'response.done', response: { id: turn.id, status: 'completed' } });
});
