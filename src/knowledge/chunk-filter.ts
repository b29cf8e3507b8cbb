/**
 * Which chunks a listing or a retrieval keeps: Langflow's filters on the ingestion's own keys (source_type,
 * file_name, job_id), a text search, and user metadata (`source_metadata`, stored as a JSON string): every key
 * must match, any of a key's values may (a stored array matches when it shares one).
 */
import type { ChunkRow } from '../../protocol/knowledge-base.schema.js';

export interface ChunkQuery {
  page: number;
  limit: number;
  search?: string;
  source_type?: string;
  file_name?: string;
  job_id?: string;
  /** `meta_<key>=<value>` parameters, by key. */
  metadata?: Record<string, string[]>;
}

export type MetadataFilter = Record<string, string[]>;

export function chunkFilter(query: ChunkQuery): (chunk: ChunkRow) => boolean {
  const search = query.search?.trim().toLowerCase();
  return ({ text, metadata }) => {
    if (query.source_type && metadata.source_type !== query.source_type) return false;
    if (query.file_name && metadata.file_name !== query.file_name) return false;
    if (query.job_id && metadata.job_id !== query.job_id) return false;
    if (query.metadata && Object.keys(query.metadata).length > 0 && !metadataMatches(metadata, query.metadata)) return false;
    return !search || text.toLowerCase().includes(search);
  };
}

export function metadataMatches(metadata: Record<string, unknown>, filter: MetadataFilter): boolean {
  const raw = metadata.source_metadata;
  let stored: unknown = raw;
  if (typeof raw === 'string') {
    try {
      stored = JSON.parse(raw);
    } catch {
      return false;
    }
  }
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return false;
  for (const [key, wanted] of Object.entries(filter)) {
    const actual = (stored as Record<string, unknown>)[key];
    if (actual === undefined || actual === null) return false;
    const values = Array.isArray(actual) ? actual.map(String) : [String(actual)];
    if (!values.some((value) => wanted.includes(value))) return false;
  }
  return true;
}

/** Langflow's `metadata_filter` field: a JSON object of key to value or values; anything else filters nothing. */
export function parseMetadataFilter(raw: string | undefined): MetadataFilter {
  if (!raw?.trim()) return {};
  let decoded: unknown;
  try {
    decoded = JSON.parse(raw);
  } catch {
    return {};
  }
  if (!decoded || typeof decoded !== 'object' || Array.isArray(decoded)) return {};
  const filter: MetadataFilter = {};
  for (const [key, value] of Object.entries(decoded)) filter[key] = Array.isArray(value) ? value.map(String) : [String(value)];
  return filter;
}
