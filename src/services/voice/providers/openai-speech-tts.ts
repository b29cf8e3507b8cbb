/** Text to speech through any OpenAI-compatible `/v1/audio/speech` (OpenAI, LocalAI, Kokoro, openedai-speech). */
import { pcmChunks } from '../pcm-stream.js';
import { openaiBase } from '../provider-urls.js';
import type { SpeakOptions, TtsProvider } from '../speech-port.js';

const MODEL = 'gpt-4o-mini-tts';
const DEFAULT_VOICE = 'echo';

export const openaiSpeech: TtsProvider = {
  keyName: 'OPENAI_API_KEY',
  async *speak(text: string, options: SpeakOptions) {
    const response = await fetch(`${openaiBase()}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' },
      // `pcm`: raw PCM16 at 24 kHz, no container, so the first bytes can be played (and forwarded) at once.
      body: JSON.stringify({ model: MODEL, voice: options.voice ?? DEFAULT_VOICE, input: text, response_format: 'pcm' }),
      signal: options.signal,
    });
    yield* pcmChunks(response, 'the speech server');
  },
};
