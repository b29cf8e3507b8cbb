/** Parses one client frame: JSON text, then protocol/voice.schema.ts. Never throws: a bad frame is an error event. */
import { ClientFrame } from '../../../protocol/voice.schema.js';

export type ParsedFrame = { success: true; data: ClientFrame } | { success: false; message: string };

export function parseFrame(text: string, binary: boolean): ParsedFrame {
  if (binary) return { success: false, message: 'Frames must be JSON text; audio goes base64 in input_audio_buffer.append' };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { success: false, message: 'The frame is not JSON' };
  }
  const parsed = ClientFrame.safeParse(json);
  if (parsed.success) return parsed;
  const issue = parsed.error.issues[0];
  const where = issue.path.length ? `${issue.path.join('.')}: ` : '';
  const type = typeof (json as { type?: unknown })?.type === 'string' ? (json as { type: string }).type : undefined;
  if (issue.path[0] === 'type' || issue.code === 'invalid_union') return { success: false, message: `Unknown frame type${type ? ` "${type.slice(0, 100)}"` : ''}` };
  return { success: false, message: `${where}${issue.message}` };
}
