/**
 * The ingest form's settings, checked before anything is queued: Langflow's bounds (a chunk overlap larger than the
 * chunk size is a 422), JSON metadata objects, and the caller's own uploaded files named in `file_ids`.
 */
import { z } from 'zod';
import type { IngestionFile } from '../../../protocol/knowledge-base.schema.js';
import { ValidationError } from '../../errors/index.js';
import type { IngestOptions } from '../../knowledge/knowledge-bases.service.js';

/** Longest chunk: far past any embedding model's input, short of holding a file as one chunk. */
export const MAX_CHUNK_SIZE = 100_000;
const METADATA_MAX_CHARS = 64 * 1024;

const invalid = (field: string, msg: string) => new ValidationError([{ loc: ['body', field], msg, type: 'value_error' }]);

function integer(fields: Record<string, string>, name: string, fallback: number, min: number, max: number): number {
  const raw = fields[name];
  if (raw === undefined || raw === '') return fallback;
  const parsed = z.coerce.number().int().min(min).max(max).safeParse(raw);
  if (!parsed.success) throw invalid(name, `${name} must be a whole number from ${min} to ${max}`);
  return parsed.data;
}

function jsonObject(fields: Record<string, string>, name: string): Record<string, unknown> {
  const raw = fields[name]?.trim();
  if (!raw) return {};
  if (raw.length > METADATA_MAX_CHARS) throw invalid(name, `${name} must be at most ${METADATA_MAX_CHARS} characters`);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw invalid(name, `${name} must be a JSON object`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid(name, `${name} must be a JSON object`);
  return value as Record<string, unknown>;
}

/** `file_ids`: a JSON list, or names separated by commas. */
export function fileIdsOf(fields: Record<string, string>): string[] {
  const raw = fields.file_ids?.trim();
  if (!raw) return [];
  if (raw.startsWith('[')) {
    const parsed = z.array(z.string().max(400)).max(1000).safeParse((() => { try { return JSON.parse(raw); } catch { return undefined; } })());
    if (!parsed.success) throw invalid('file_ids', 'file_ids must be a JSON list of file ids or paths');
    return parsed.data;
  }
  return raw.split(',').map((id) => id.trim()).filter(Boolean);
}

export function ingestOptions(fields: Record<string, string>, files: IngestionFile[], headerGlobals: Record<string, string>): IngestOptions {
  const chunkSize = integer(fields, 'chunk_size', 1000, 1, MAX_CHUNK_SIZE);
  const chunkOverlap = integer(fields, 'chunk_overlap', 200, 0, MAX_CHUNK_SIZE);
  if (chunkOverlap >= chunkSize && chunkOverlap > 0) throw invalid('chunk_overlap', `Chunk overlap (${chunkOverlap}) can't be larger than chunk size (${chunkSize}).`);
  const perFile = jsonObject(fields, 'per_file_metadata');
  for (const [name, value] of Object.entries(perFile)) {
    if (!value || typeof value !== 'object' || Array.isArray(value)) throw invalid('per_file_metadata', `per_file_metadata.${name} must be a JSON object`);
  }
  return {
    files,
    chunkSize,
    chunkOverlap,
    separator: (fields.separator ?? '').slice(0, 100),
    sourceName: (fields.source_name ?? '').slice(0, 1000),
    metadata: jsonObject(fields, 'metadata'),
    perFileMetadata: perFile as Record<string, Record<string, unknown>>,
    headerGlobals,
  };
}
