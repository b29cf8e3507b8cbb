/**
 * Langflow's flow_tts frames, server side: a build's events (build-events.ts) wrapped as `flow.build.progress`,
 * the answer's text read from them, and the error events with Langflow's codes (`langflow_auth`, `api_key_missing`
 * with its `key_name`).
 */
import type { ServerFrame, VoiceErrorCode } from '../../protocol/voice.schema.js';
export function progressFrame(event: string, data: unknown): ServerFrame {
  return { type: 'flow.build.progress', data: { event, data } };
}

/** What a progress entry adds to the spoken answer: a token of the answer, or a whole answer message. */
export type AnswerPiece = { kind: 'token'; messageId: string; text: string } | { kind: 'message'; messageId: string; text: string };

export function answerPiece(event: string, data: unknown): AnswerPiece | undefined {
  const record = data as { id?: unknown; chunk?: unknown; text?: unknown; sender?: unknown };
  if (event === 'token' && typeof record.chunk === 'string') return { kind: 'token', messageId: String(record.id ?? ''), text: record.chunk };
  // The flow's answer is the machine's message; the user's own (the transcript, stored by Chat Input) is not spoken.
  if (event === 'add_message' && record.sender === 'Machine' && typeof record.text === 'string') return { kind: 'message', messageId: String(record.id ?? ''), text: record.text };
  return undefined;
}

export const VOICE_MESSAGES = {
  auth: 'Authentication failed: send an API key (x-api-key query parameter or header) or an access token (token query parameter, bearer header or access_token_lf cookie), or either in a first voice.auth frame.',
  flowNotFound: 'Flow not found',
  idTooLong: (which: string, max: number) => `The ${which} in the path must be at most ${max} characters`,
  keyMissing: (name: string) => `${name} is not set: store it as a global variable or send it as a request global variable.`,
} as const;

export function errorFrame(code: VoiceErrorCode, message: string, keyName?: string): ServerFrame {
  return keyName ? { type: 'error', code, key_name: keyName, message } : { type: 'error', code, message };
}
