/**
 * Splits text the way LangChain's CharacterTextSplitter does (what Langflow's Split Text uses): cut on a literal
 * separator, then merge the pieces greedily into chunks of at most `chunkSize` characters, carrying up to
 * `chunkOverlap` characters of trailing pieces into the next chunk. A single piece longer than `chunkSize` stays
 * whole. Lengths count code points, like Python's len().
 */

export type KeepSeparator = false | 'start' | 'end';

export interface SplitOptions {
  separator: string;
  chunkSize: number;
  chunkOverlap: number;
  keepSeparator: KeepSeparator;
}

export function splitText(text: string, options: SplitOptions): string[] {
  const pieces = cut(text, options.separator, options.keepSeparator);
  // Kept separators are already inside the pieces; otherwise the separator glues merged pieces back together.
  return merge(pieces, options.keepSeparator ? '' : options.separator, options);
}

const length = (s: string) => {
  let n = 0;
  for (const _ of s) n++;
  return n;
};

function cut(text: string, separator: string, keep: KeepSeparator): string[] {
  if (separator === '') return [...text];
  const parts = text.split(separator);
  if (!keep) return parts.filter((p) => p !== '');
  const joined: string[] = [];
  if (keep === 'start') {
    joined.push(parts[0]!);
    for (let i = 1; i < parts.length; i++) joined.push(separator + parts[i]!);
  } else {
    for (let i = 0; i < parts.length - 1; i++) joined.push(parts[i]! + separator);
    joined.push(parts[parts.length - 1]!);
  }
  return joined.filter((p) => p !== '');
}

export function merge(pieces: string[], separator: string, { chunkSize, chunkOverlap }: Pick<SplitOptions, 'chunkSize' | 'chunkOverlap'>): string[] {
  const sepLength = length(separator);
  const chunks: string[] = [];
  let current: string[] = [];
  let total = 0;
  for (const piece of pieces) {
    const pieceLength = length(piece);
    const joinCost = current.length > 0 ? sepLength : 0;
    if (total + pieceLength + joinCost > chunkSize && current.length > 0) {
      push(chunks, current, separator);
      // Drop pieces from the front until what remains fits as overlap and leaves room for the new piece.
      while (total > chunkOverlap || (total + pieceLength + (current.length > 0 ? sepLength : 0) > chunkSize && total > 0)) {
        total -= length(current[0]!) + (current.length > 1 ? sepLength : 0);
        current = current.slice(1);
      }
    }
    current.push(piece);
    total += pieceLength + (current.length > 1 ? sepLength : 0);
  }
  push(chunks, current, separator);
  return chunks;
}

function push(chunks: string[], pieces: string[], separator: string): void {
  const chunk = pieces.join(separator).trim();
  if (chunk !== '') chunks.push(chunk);
}
