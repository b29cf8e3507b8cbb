/**
 * Assembles knowledge bases for the service: vector files under `<files dir>/knowledge` (shared by instances in
 * cluster mode), the index cache, ingestions on the run lifecycle, the API's service and what components reach.
 */
import { basename } from 'node:path';
import { stat } from 'node:fs/promises';
import type { IngestionFile } from '../../protocol/knowledge-base.schema.js';
import type { SecretBox } from '../auth/secret-box.js';
import type { CallersFiles } from '../components/contract.js';
import type { Logger } from '../logger.js';
import type { Runs } from '../runs/run-lifecycle.js';
import type { Store } from '../store/port.js';
import { CallerKnowledge } from './caller-knowledge.js';
import { IngestionRuns } from './ingest/ingestion-runs.js';
import { KnowledgeBasesService } from './knowledge-bases.service.js';
import { KnowledgeSearch } from './knowledge-search.js';
import { SegmentFiles } from './vectors/segment-files.js';
import { VectorIndexes } from './vectors/vector-indexes.js';

export interface KnowledgeSettings {
  fallbackToEnv: boolean;
  allowPrivateNetwork: boolean;
  maxChunks: number;
  defaultEmbeddingModel?: string;
}

export interface KnowledgeDeps {
  store: Store;
  filesDir: string;
  runs: Runs;
  variables: { resolve(userId: string, name: string): Promise<string | undefined> };
  secrets: SecretBox;
  logger: Logger;
  callerFiles: CallersFiles;
  fileName: (userId: string, ref: string) => Promise<string | undefined>;
  settings: KnowledgeSettings;
}

export interface Knowledge {
  service: KnowledgeBasesService;
  callers: CallerKnowledge;
  /** A caller's own uploaded file (v2 id or path) as an ingestion reads it; refused like the File component's. */
  callerFile(userId: string, ref: string): Promise<IngestionFile>;
  close(): void;
}

export async function setUpKnowledge(deps: KnowledgeDeps): Promise<Knowledge> {
  const { store, settings } = deps;
  const files = new SegmentFiles(deps.filesDir);
  await sayWhereVectorsLive(store, deps.filesDir, deps.logger);
  const indexes = new VectorIndexes(files, deps.logger);
  const search = new KnowledgeSearch(store.knowledge, files, indexes);
  const embeddings = { defaultEmbeddingModel: settings.defaultEmbeddingModel };
  const ingestions = new IngestionRuns({
    runs: deps.runs,
    repo: store.knowledge,
    files,
    indexes,
    variables: deps.variables,
    secrets: deps.secrets,
    logger: deps.logger,
    settings: { fallbackToEnv: settings.fallbackToEnv, allowPrivateNetwork: settings.allowPrivateNetwork, maxChunks: settings.maxChunks, embeddings },
  });
  return {
    service: new KnowledgeBasesService(store.knowledge, ingestions, search, files, indexes),
    callers: new CallerKnowledge(store.knowledge, search, files, indexes, embeddings),
    async callerFile(userId, ref) {
      const path = await deps.callerFiles.open(ref, userId);
      const { size } = await stat(path);
      return { name: (await deps.fileName(userId, ref)) ?? basename(ref), path, size, staged: false };
    },
    close: () => indexes.close(),
  };
}

/**
 * Where vectors live decides what instances must share: said once at start-up, with whether the database offers
 * pgvector (looked up, not used: vectors stay in the files dir whatever it says).
 */
async function sayWhereVectorsLive(store: Store, filesDir: string, logger: Logger): Promise<void> {
  const dir = `${filesDir}/knowledge`;
  let pgvector: 'available' | 'absent' | undefined;
  try {
    pgvector = await store.knowledge.vectorExtension();
  } catch (err) {
    logger.debug({ err }, 'could not look up the pgvector extension');
    pgvector = 'absent';
  }
  if (pgvector === undefined) {
    logger.info({ dir }, 'knowledge base vectors and indexes are kept in the files dir; records and chunks in the store');
    return;
  }
  const why = pgvector === 'available' ? 'pgvector is available in this database but not used' : 'pgvector is not installed in this database';
  logger.info({ dir, pgvector }, `knowledge base vector store: the files dir, which every instance must share (${why}); records and chunks in PostgreSQL`);
}
