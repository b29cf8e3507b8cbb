/**
 * Knowledge bases as components reach them, for one caller: the Knowledge node's retrieval and in-run ingestion,
 * and the persistent stores of the FAISS and Chroma nodes (kept in the store per user, by the node's own name,
 * never in a directory a flow names). Another user's knowledge base is not found here, as it is not in the API.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { KnowledgeBaseRecord } from '../../protocol/knowledge-base.schema.js';
import { ComponentError } from '../components/component.error.js';
import type { KnowledgeRepo } from '../store/knowledge.port.js';
import { NameTakenError } from '../store/name-taken.error.js';
import type { EmbeddingsValue } from '../values/embeddings.js';
import { metadataMatches } from './chunk-filter.js';
import { embeddingsValue } from './embeddings/embeddings-client.js';
import { resolveEmbeddings, type EmbeddingDefaults, type VariableLookup } from './embeddings/embedding-resolution.js';
import { selectionOf } from './ingest/ingestion-runs.js';
import { storedName } from './kb-names.js';
import type { CallersKnowledge, KnowledgeAccess, StoredDocument, VectorStoreHandle } from './knowledge-access.js';
import type { KnowledgeSearch } from './knowledge-search.js';
import type { SegmentFiles } from './vectors/segment-files.js';
import { SegmentWriter } from './vectors/segment-writer.js';
import type { VectorIndexes } from './vectors/vector-indexes.js';

const BATCH = 256;

export class CallerKnowledge implements CallersKnowledge {
  constructor(
    private readonly repo: KnowledgeRepo,
    private readonly search: KnowledgeSearch,
    private readonly files: SegmentFiles,
    private readonly indexes: VectorIndexes,
    readonly embeddingDefaults: EmbeddingDefaults,
  ) {}

  forUser(userId: string): KnowledgeAccess {
    return {
      embeddingDefaults: this.embeddingDefaults,
      retrieve: async (name, options, variable, signal) => {
        const kb = await this.knowledgeBase(userId, name);
        if (kb.chunks === 0) return [];
        const embeddings = await this.embeddingsOf(kb, variable, options.apiKey);
        const [query] = await embeddings.embed([options.query], signal);
        const keep = Object.keys(options.filter).length > 0 ? (chunk: StoredDocument) => metadataMatches(chunk.metadata, options.filter) : undefined;
        const found = await this.search.nearest(kb, query!, options.topK, keep);
        const rows: Record<string, unknown>[] = [];
        for (const chunk of found) {
          if (options.scoreThreshold && chunk.score < options.scoreThreshold) continue;
          const row: Record<string, unknown> = { content: chunk.text, _score: chunk.score };
          if (options.includeMetadata) Object.assign(row, chunk.metadata);
          if (options.includeEmbeddings) row._embeddings = await this.search.vectorOf(kb, chunk.jobId, chunk.index);
          rows.push(row);
        }
        return rows;
      },
      ingestRows: async (name, documents, options, variable, signal) => {
        const kb = await this.knowledgeBase(userId, name);
        const embeddings = await this.embeddingsOf(kb, variable, options.apiKey);
        const jobId = randomUUID();
        const kept = options.allowDuplicates ? documents.map(withId) : await this.withoutKnown(kb, documents.map(withId));
        const written = await this.write(kb, jobId, kept, embeddings, signal, false);
        return { kb_id: kb.id, kb_name: kb.name, rows: documents.length, chunks_written: written, job_id: jobId, timestamp: new Date().toISOString() };
      },
      vectorStore: (kind, name, embeddings) => this.vectorStore(userId, kind, name, embeddings),
    };
  }

  private async knowledgeBase(userId: string, name: string): Promise<KnowledgeBaseRecord> {
    const stored = storedName(name ?? '');
    const kb = stored && (await this.repo.getByName(userId, 'knowledge', stored));
    if (!kb) throw new ComponentError(`Knowledge base '${name}' not found`);
    return kb;
  }

  private async embeddingsOf(kb: KnowledgeBaseRecord, variable: VariableLookup, apiKey?: string): Promise<EmbeddingsValue> {
    return embeddingsValue(await resolveEmbeddings({ model: selectionOf(kb), apiKey }, variable, this.embeddingDefaults));
  }

  /** The documents whose content hash (`_id`, as Langflow stamps it) the knowledge base does not hold yet. */
  private async withoutKnown(kb: KnowledgeBaseRecord, documents: StoredDocument[]): Promise<StoredDocument[]> {
    const known = new Set<unknown>();
    for await (const chunk of this.search.chunks(kb)) known.add(chunk.metadata._id);
    const fresh: StoredDocument[] = [];
    for (const document of documents) {
      if (known.has(document.metadata._id)) continue;
      known.add(document.metadata._id);
      fresh.push(document);
    }
    return fresh;
  }

  /** Embeds and writes `documents` as one segment, committed at once (or rolled back on any failure). */
  private async write(kb: KnowledgeBaseRecord, jobId: string, documents: readonly StoredDocument[], embeddings: EmbeddingsValue, signal: AbortSignal, replace: boolean): Promise<number> {
    if (documents.length === 0 && !replace) return 0;
    const writer = new SegmentWriter(this.repo, this.files, kb, jobId);
    try {
      for (let start = 0; start < documents.length; start += BATCH) {
        const part = documents.slice(start, start + BATCH);
        await writer.add(part, await embeddings.embed(part.map((d) => d.text), signal));
      }
      this.indexes.afterCommit(await writer.commit({ replace }));
      return writer.written;
    } catch (error) {
      await writer.rollback();
      throw new ComponentError((error as Error).message);
    }
  }

  private vectorStore(userId: string, kind: 'chroma' | 'faiss', name: string, embeddings: EmbeddingsValue): VectorStoreHandle {
    const opened = () => this.openStore(userId, kind, name, embeddings);
    return {
      add: async (documents, options, signal) => {
        const kb = await opened();
        const rows = documents.map(withId);
        const kept = options.skipDuplicates && !options.replace ? await this.withoutKnown(kb, rows) : rows;
        return this.write(kb, randomUUID(), kept, embeddings, signal, options.replace ?? false);
      },
      search: async (query, k, signal) => {
        const kb = await opened();
        if (kb.chunks === 0 || !query.trim()) return [];
        const [vector] = await embeddings.embed([query], signal);
        return (await this.search.nearest(kb, vector!, k)).map(({ id, text, metadata, score }) => ({ id, text, metadata, score }));
      },
    };
  }

  /** The node's store, made on first use; its key is a digest of the node's name, so any name is safe. */
  private async openStore(userId: string, kind: 'chroma' | 'faiss', name: string, embeddings: EmbeddingsValue): Promise<KnowledgeBaseRecord> {
    const key = createHash('sha256').update(name).digest('hex').slice(0, 40);
    const existing = await this.repo.getByName(userId, kind, key);
    if (existing) return existing;
    const now = new Date().toISOString();
    const record: KnowledgeBaseRecord = {
      id: randomUUID(), user_id: userId, name: key, kind, embedding_provider: embeddings.provider, embedding_model: embeddings.model, dimensions: null,
      chunk_size: null, chunk_overlap: null, separator: null, column_config: null, chunks: 0, words: 0, characters: 0, size: 0, source_types: [],
      failure_reason: null, last_job_id: null, segments: [], generation: 0, created_at: now, updated_at: now,
    };
    try {
      await this.repo.insert(record);
      return record;
    } catch (error) {
      // Two runs opened it at once: the first one's record is the store.
      if (error instanceof NameTakenError) return (await this.repo.getByName(userId, kind, key))!;
      throw error;
    }
  }
}

/** Langflow stamps each chunk with the hash of its content (`_id`): duplicates are found by it. */
function withId(document: StoredDocument): StoredDocument {
  if (document.metadata._id) return document;
  return { text: document.text, metadata: { ...document.metadata, _id: createHash('sha256').update(document.text).digest('hex') } };
}
