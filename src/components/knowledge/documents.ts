/** Values on an Ingest Data edge as documents (text and metadata), and found documents as Langflow's Data. */
import type { FoundDocument, StoredDocument } from '../../knowledge/knowledge-access.js';
import { toText } from '../../values/coerce.js';
import { createData, dataText, isData, type DataValue } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { isTable } from '../../values/table.js';

/** Each Data, each table row and each Message is one document: its text, and its other keys as metadata. */
export function documentsOf(input: unknown): StoredDocument[] {
  const items = Array.isArray(input) ? input : input === undefined || input === null || input === '' ? [] : [input];
  const documents: StoredDocument[] = [];
  for (const item of items) {
    if (isTable(item)) for (const row of item.rows) documents.push(fromObject(row, 'text'));
    else if (isData(item)) documents.push({ text: dataText(item), metadata: metadataOf(item.data, item.text_key) });
    else if (isMessage(item)) documents.push({ text: item.text, metadata: {} });
    else if (Array.isArray(item)) documents.push(...documentsOf(item));
    else if (item && typeof item === 'object') documents.push(fromObject(item as Record<string, unknown>, 'text'));
    else documents.push({ text: toText(item), metadata: {} });
  }
  return documents.filter((document) => document.text.trim() !== '');
}

function fromObject(row: Record<string, unknown>, textKey: string): StoredDocument {
  const text = row[textKey];
  return { text: typeof text === 'string' ? text : text === undefined || text === null ? '' : JSON.stringify(text), metadata: metadataOf(row, textKey) };
}

function metadataOf(data: Record<string, unknown>, textKey: string): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (key !== textKey) metadata[key] = value;
  return metadata;
}

/** Langflow's docs_to_data: the text, then the document's metadata. */
export const asData = (found: FoundDocument): DataValue => createData({ text: found.text, ...found.metadata });
