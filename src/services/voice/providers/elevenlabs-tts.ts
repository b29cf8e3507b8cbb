/** Text to speech through ElevenLabs' streaming endpoint (ELEVENLABS_BASE_URL), and its voice list. */
import { pcmChunks } from '../pcm-stream.js';
import { elevenLabsBase } from '../provider-urls.js';
import { UpstreamError, type SpeakOptions, type TtsProvider } from '../speech-port.js';

/** Langflow's default voice and model. */
const DEFAULT_VOICE = 'JBFqnCBsd6RMkjVDRZzb';
const MODEL = 'eleven_multilingual_v2';

export const elevenLabsSpeech: TtsProvider = {
  keyName: 'ELEVENLABS_API_KEY',
  async *speak(text: string, options: SpeakOptions) {
    const voice = encodeURIComponent(options.voice ?? DEFAULT_VOICE);
    const response = await fetch(`${elevenLabsBase()}/v1/text-to-speech/${voice}/stream?output_format=pcm_24000`, {
      method: 'POST',
      headers: { 'xi-api-key': options.key, 'content-type': 'application/json' },
      body: JSON.stringify({ text, model_id: MODEL }),
      signal: options.signal,
    });
    yield* pcmChunks(response, 'ElevenLabs');
  },
};

export async function elevenLabsVoices(key: string, signal?: AbortSignal): Promise<{ voice_id: string; name: string }[]> {
  const response = await fetch(`${elevenLabsBase()}/v1/voices`, { headers: { 'xi-api-key': key }, signal });
  if (!response.ok) throw new UpstreamError(`ElevenLabs answered ${response.status}`);
  const body = (await response.json()) as { voices?: { voice_id?: unknown; name?: unknown }[] };
  return (body.voices ?? []).map((voice) => ({ voice_id: String(voice.voice_id ?? ''), name: String(voice.name ?? '') }));
}
