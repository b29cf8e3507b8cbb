/** Content types of stored files, from their extension (the mime-types table, kept by the jshttp project). */
import mime from 'mime-types';
import { IMAGE_EXTENSIONS } from '../../services/files/user-files.service.js';
import { splitName } from '../../services/files/file-names.js';

/** The type a download is sent with; an unknown extension is plain bytes. */
export function contentTypeOf(name: string): string {
  return mime.lookup(name) || 'application/octet-stream';
}

/** The image type of `name`, or undefined when it is not one of the images the service accepts. */
export function imageTypeOf(name: string): string | undefined {
  if (!IMAGE_EXTENSIONS.includes(splitName(name).extension)) return undefined;
  const type = mime.lookup(name);
  return type && type.startsWith('image/') ? type : undefined;
}

/**
 * Headers for a stored file shown inline: the browser keeps to the declared type, and an SVG's scripts cannot run
 * with this origin's rights (an upload is the uploader's content, not ours).
 */
export const INLINE_FILE_HEADERS = { 'x-content-type-options': 'nosniff', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; sandbox" };
