/** The speech providers by the names settings use (FLOWSVC_VOICE_STT / _TTS, `voice.settings`). */
import type { SttProviderName, TtsProviderName } from '../../../protocol/voice.schema.js';
import { elevenLabsSpeech } from './providers/elevenlabs-tts.js';
import { openaiRealtimeTranscription } from './providers/openai-realtime-stt.js';
import { openaiSpeech } from './providers/openai-speech-tts.js';
import { openaiTranscriptions } from './providers/openai-transcriptions-stt.js';
import type { SttProvider, TtsProvider } from './speech-port.js';

export const STT_PROVIDERS: Readonly<Record<SttProviderName, SttProvider>> = {
  'openai-realtime': openaiRealtimeTranscription,
  'openai-transcriptions': openaiTranscriptions,
};

export const TTS_PROVIDERS: Readonly<Record<TtsProviderName, TtsProvider>> = {
  openai: openaiSpeech,
  elevenlabs: elevenLabsSpeech,
};
