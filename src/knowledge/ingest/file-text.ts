/**
 * The text of a file to ingest, in windows to split one at a time: plain text is read as a stream of UTF-8, so a
 * 200 MB file is never whole in memory; PDF, DOCX and HTML go through the File component's readers (their parsers
 * need the whole file). A file that is not text at all (a binary file under a text name) is refused by name rather
 * than embedded as noise.
 */
import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { extensionOf, readOne } from '../../components/data/file-readers.js';
import { textWindows, WINDOW_SIZE, windowEnd } from './recursive-splitter.js';

/** Read whole by their parsers; everything else readable is UTF-8 text. */
const PARSED = new Set(['pdf', 'docx', 'html', 'htm', 'xhtml']);
const STRUCTURED = new Set(['pdf', 'docx']);
const SNIFF_BYTES = 64 * 1024;

export class NotTextError extends Error {
  override name = 'NotTextError';
}

/** The file's text window by window (see textWindows); NotTextError for binary data under a text name. */
export async function* fileWindows(path: string, displayName: string, signal: AbortSignal): AsyncGenerator<string> {
  const ext = extensionOf(displayName);
  if (!STRUCTURED.has(ext) && (await looksBinary(path))) throw new NotTextError(`${displayName} is not a text file (it holds binary data)`);
  if (!PARSED.has(ext)) {
    yield* streamedWindows(path, signal);
    return;
  }
  // The reader picks its parser by the path's extension: the staged file keeps the name it was sent with.
  const { text } = await readOne(path, signal);
  yield* textWindows(text);
}

/** UTF-8 text read in pieces (a character split across two pieces is decoded whole), cut as textWindows cuts. */
async function* streamedWindows(path: string, signal: AbortSignal): AsyncGenerator<string> {
  let pending = '';
  let first = true;
  for await (const piece of createReadStream(path, { encoding: 'utf8', highWaterMark: 64 * 1024, signal }) as AsyncIterable<string>) {
    pending += first ? piece.replace(/^\uFEFF/, '') : piece;
    first = false;
    while (pending.length > WINDOW_SIZE * 2) {
      const end = windowEnd(pending, 0, WINDOW_SIZE);
      yield pending.slice(0, end);
      pending = pending.slice(end);
    }
  }
  yield* textWindows(pending);
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
