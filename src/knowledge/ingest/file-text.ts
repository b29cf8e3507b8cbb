/**
 * The text of a file to ingest: PDF, DOCX and HTML through the File component's readers, anything else as UTF-8
 * text, unless it is not text at all (a binary file under a text name): that one is refused by name rather than
 * embedded as noise.
 */
import { open } from 'node:fs/promises';
import { extensionOf, readOne } from '../../components/data/file-readers.js';

const STRUCTURED = new Set(['pdf', 'docx']);
const SNIFF_BYTES = 64 * 1024;

export class NotTextError extends Error {
  override name = 'NotTextError';
}

export async function fileText(path: string, displayName: string, signal: AbortSignal): Promise<string> {
  const ext = extensionOf(displayName);
  if (!STRUCTURED.has(ext) && (await looksBinary(path))) throw new NotTextError(`${displayName} is not a text file (it holds binary data)`);
  // The reader picks its parser by the path's extension: the staged file keeps the name it was sent with.
  const { text } = await readOne(path, signal);
  return text;
}

/** NUL bytes, or mostly bytes that are not valid UTF-8, in the first 64 KB. */
async function looksBinary(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, SNIFF_BYTES, 0);
    const sample = buffer.subarray(0, bytesRead);
    if (sample.includes(0)) return true;
    const decoded = new TextDecoder('utf-8').decode(sample);
    let replaced = 0;
    for (const char of decoded) if (char === '\uFFFD') replaced++;
    return replaced > decoded.length / 10;
  } finally {
    await handle.close();
  }
}
