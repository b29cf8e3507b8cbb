/** ZIP downloads: `application/zip` with an attachment filename that survives any project or flow name. */
import { Reply } from '../../edge/reply.js';

export function zipReply(bytes: Uint8Array, filename: string): Reply {
  return Reply.bytes(bytes, 'application/zip', 200, { 'content-disposition': contentDisposition(filename) });
}

/**
 * `attachment; filename=...` as Langflow sends it when the name is plain ASCII; otherwise an ASCII fallback plus
 * RFC 5987 `filename*`, because header values must stay Latin-1 and user names are not.
 */
export function contentDisposition(filename: string): string {
  if (/^[\x21-\x7e ]+$/.test(filename) && !/[";\\]/.test(filename)) return `attachment; filename=${filename.includes(' ') ? `"${filename}"` : filename}`;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encodeURIComponent(filename)}`;
}
