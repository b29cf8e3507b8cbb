/** An ingestion record in Langflow's IngestionRunInfo / IngestionRunDetail shapes. */
import type { IngestionRecord } from '../../../protocol/knowledge-base.schema.js';

export function runInfo(job: IngestionRecord) {
  const count = (status: string) => job.items.filter((item) => item.status === status).length;
  return {
    id: job.id,
    kb_name: job.kb_name,
    kb_id: job.kb_id,
    job_id: job.id,
    source_type: job.source_type,
    source_name: job.source_name,
    status: job.status,
    error_message: job.error_message,
    total_items: job.files.length,
    succeeded: count('succeeded'),
    failed: count('failed'),
    skipped: count('skipped'),
    total_bytes: job.total_bytes,
    chunks_created: job.chunks_created,
    started_at: job.started_at,
    finished_at: job.finished_at,
    user_metadata: job.user_metadata,
  };
}

export function runDetail(job: IngestionRecord) {
  return {
    ...runInfo(job),
    source_config: { source_name: job.source_name, chunk_size: job.chunk_size, chunk_overlap: job.chunk_overlap, separator: job.separator, files: job.files.map((file) => file.name) },
    items: job.items,
  };
}
