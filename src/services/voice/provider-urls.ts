/**
 * Where the speech providers are: OPENAI_BASE_URL as for chat models (the realtime WebSocket on the same host,
 * ws(s)://), ELEVENLABS_BASE_URL for ElevenLabs. Read per use, as the model components do, so a change applies.
 */
const OPENAI_DEFAULT = 'https://api.openai.com/v1';
const ELEVENLABS_DEFAULT = 'https://api.elevenlabs.io';

export function openaiBase(): string {
  return (process.env.OPENAI_BASE_URL || OPENAI_DEFAULT).replace(/\/+$/, '');
}

export function openaiRealtimeUrl(): string {
  return `${openaiBase().replace(/^http/, 'ws')}/realtime?intent=transcription`;
}

/** The realtime voice model flow_as_tool talks to (Langflow's choice of model). */
export function openaiRealtimeModelUrl(): string {
  return `${openaiBase().replace(/^http/, 'ws')}/realtime?model=gpt-4o-mini-realtime-preview`;
}

export function elevenLabsBase(): string {
  return (process.env.ELEVENLABS_BASE_URL || ELEVENLABS_DEFAULT).replace(/\/+$/, '');
}
