/**
 * Reading one file into text (and, where the format has it, structure): plain text formats as UTF-8, HTML as its
 * readable text, PDF through pdf.js (unpdf), DOCX through mammoth, CSV into rows, JSON parsed.
 */
import { readFile } from 'node:fs/promises';
import { extname } from 'node:path';
import { parseCsv } from '../shared/csv.js';
import { htmlToText } from '../shared/html-text.js';

export interface ReadFile {
  path: string;
  text: string;
  /** Rows of a CSV file. */
  rows?: Record<string, unknown>[];
  /** The parsed content of a JSON file. */
  json?: unknown;
}

const PLAIN_TEXT = new Set(['txt', 'md', 'mdx', 'csv', 'json', 'yaml', 'yml', 'xml', 'py', 'sh', 'sql', 'js', 'ts', 'tsx', 'adoc', 'asciidoc', 'asc']);
const HTML = new Set(['html', 'htm', 'xhtml']);
/** Types Langflow's File reads that this service cannot (yet): named so the error can say so. */
const NOT_YET = new Set(['bmp', 'dotx', 'dotm', 'docm', 'jpg', 'jpeg', 'png', 'potx', 'ppsx', 'pptm', 'potm', 'ppsm', 'pptx', 'tiff', 'xls', 'xlsx', 'webp', 'zip', 'tar', 'tgz', 'bz2', 'gz']);

export const READABLE_TYPES = [...PLAIN_TEXT, ...HTML, 'pdf', 'docx'];
export const LANGFLOW_FILE_TYPES = [...READABLE_TYPES, ...NOT_YET];

export type Support = 'readable' | 'not-yet' | 'unknown';

export function supportOf(path: string): Support {
  const ext = extensionOf(path);
  if (READABLE_TYPES.includes(ext)) return 'readable';
  return NOT_YET.has(ext) ? 'not-yet' : 'unknown';
}

export const extensionOf = (path: string) => extname(path).slice(1).toLowerCase();

/** Reads and parses `path`; errors are plain (the component words them, naming the path). */
export async function readOne(path: string, signal: AbortSignal): Promise<ReadFile> {
  const bytes = await readFile(path, { signal });
  const ext = extensionOf(path);
  if (ext === 'pdf') return { path, text: await pdfText(bytes) };
  if (ext === 'docx') return { path, text: await docxText(bytes) };
  const text = new TextDecoder('utf-8').decode(bytes).replace(/^\uFEFF/, '');
  if (HTML.has(ext)) return { path, text: htmlToText(text) };
  if (ext === 'csv') return { path, text, rows: parseCsv(text) };
  if (ext === 'json') return { path, text, json: JSON.parse(text) };
  return { path, text };
}

async function pdfText(bytes: Buffer): Promise<string> {
  const { extractText, getDocumentProxy } = await import('unpdf');
  const document = await getDocumentProxy(new Uint8Array(bytes));
  try {
    const { text } = await extractText(document, { mergePages: true });
    return text;
  } finally {
    await document.destroy();
  }
}

async function docxText(bytes: Buffer): Promise<string> {
  const mammoth = (await import('mammoth')).default;
  const { value } = await mammoth.extractRawText({ buffer: bytes });
  return value.trim();
}
