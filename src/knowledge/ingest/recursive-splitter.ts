/**
 * Splits text the way LangChain's RecursiveCharacterTextSplitter does (what Langflow's ingestion uses): cut on the
 * first separator the text holds, merge the pieces into chunks of at most `chunkSize` characters with up to
 * `chunkOverlap` carried over, and cut any piece still too long with the next separator, down to single
 * characters. The caller's separator comes first, then paragraphs, lines, words and characters, so no chunk is ever
 * longer than `chunkSize` (an embedding model's input is bounded).
 */
import { merge } from '../../components/processing/character-splitter.js';

export interface ChunkingOptions {
  chunkSize: number;
  chunkOverlap: number;
  /** Tried first; `\n` and `\t` typed as two characters mean newline and tab, as in Langflow. */
  separator?: string;
}

const DEFAULT_SEPARATORS = ['\n\n', '\n', ' ', ''];

export function separatorsOf(separator: string | undefined): string[] {
  const own = (separator ?? '').replace(/\\n/g, '\n').replace(/\\t/g, '\t');
  return own ? [own, ...DEFAULT_SEPARATORS.filter((s) => s !== own)] : DEFAULT_SEPARATORS;
}

export function splitRecursively(text: string, options: ChunkingOptions): string[] {
  return split(text, separatorsOf(options.separator), options);
}

function split(text: string, separators: readonly string[], options: ChunkingOptions): string[] {
  const at = separators.findIndex((s) => s === '' || text.includes(s));
  const separator = separators[at] ?? '';
  const rest = separators.slice(at + 1);
  const pieces = separator === '' ? [...text] : text.split(separator).filter((piece) => piece !== '');
  const chunks: string[] = [];
  let fitting: string[] = [];
  for (const piece of pieces) {
    if (piece.length < options.chunkSize) {
      fitting.push(piece);
      continue;
    }
    if (fitting.length) chunks.push(...merge(fitting, separator, options));
    fitting = [];
    if (rest.length === 0) chunks.push(piece);
    else chunks.push(...split(piece, rest, options));
  }
  if (fitting.length) chunks.push(...merge(fitting, separator, options));
  return chunks;
}

/** Characters in a window: a 200 MB file is split window by window, never as one synchronous split. */
export const WINDOW_SIZE = 256 * 1024;

/**
 * A long text in windows of about `size` characters, each ending at a paragraph or line break where there is one
 * (the event loop is given back between them).
 */
export function* textWindows(text: string, size = WINDOW_SIZE): Generator<string> {
  let start = 0;
  while (start < text.length) {
    const end = text.length - start > size ? windowEnd(text, start, size) : text.length;
    yield text.slice(start, end);
    start = end;
  }
}

/** Where the window starting at `start` ends, when more than `size` characters follow it. */
export function windowEnd(text: string, start: number, size: number): number {
  const end = start + size;
  const paragraph = text.lastIndexOf('\n\n', end);
  const line = text.lastIndexOf('\n', end);
  return paragraph > start + size / 2 ? paragraph : line > start + size / 2 ? line : end;
}
