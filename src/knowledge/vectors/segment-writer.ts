/**
 * One ingestion's writes into a knowledge base: its chunks go to the store and its vectors to a part file as they
 * are embedded; `commit` renames the file into place and adds the segment to the knowledge base's record in one
 * atomic update (only then do searches and listings see any of it); `rollback` removes what was written. Whatever
 * happens, a knowledge base shows all of an ingestion or nothing of it.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import type { ChunkRow, KnowledgeBaseRecord, Segment } from '../../../protocol/knowledge-base.schema.js';
import type { KnowledgeRepo } from '../../store/knowledge.port.js';
import type { SegmentFiles } from './segment-files.js';

export class CommitRefusedError extends Error {
  override name = 'CommitRefusedError';
}

export interface CommitOptions {
  /** The new segment replaces every earlier one (FAISS rebuilds its index from what it was given). */
  replace?: boolean;
  /** Applied to the record with the segment (settings and source types of the ingestion). */
  amend?: (record: KnowledgeBaseRecord) => Partial<KnowledgeBaseRecord>;
}

export class SegmentWriter {
  private handle: FileHandle | undefined;
  private readonly partPath: string;
  private readonly finalPath: string;
  private count = 0;
  private words = 0;
  private characters = 0;
  private dims: number | undefined;

  constructor(
    private readonly repo: KnowledgeRepo,
    private readonly files: SegmentFiles,
    private readonly kb: KnowledgeBaseRecord,
    readonly jobId: string,
  ) {
    const dir = files.dirOf(kb.user_id, kb.id);
    this.finalPath = files.segmentPath(dir, jobId);
    this.partPath = `${this.finalPath}.part-${randomUUID()}`;
    this.dims = kb.dimensions ?? undefined;
  }

  get written(): number {
    return this.count;
  }

  /** Appends chunks with their unit vectors; every vector must have the knowledge base's dimensions. */
  async add(rows: readonly ChunkRow[], vectors: readonly Float32Array[]): Promise<void> {
    if (rows.length !== vectors.length) throw new Error(`${rows.length} chunks but ${vectors.length} vectors`);
    if (rows.length === 0) return;
    this.dims ??= vectors[0]!.length;
    for (const vector of vectors) {
      if (vector.length !== this.dims) throw new CommitRefusedError(`The embedding model answered vectors of ${vector.length} dimensions; this knowledge base holds vectors of ${this.dims}`);
    }
    if (!this.handle) {
      await mkdir(this.files.dirOf(this.kb.user_id, this.kb.id), { recursive: true });
      this.handle = await open(this.partPath, 'w');
    }
    const bytes = new Float32Array(rows.length * this.dims);
    vectors.forEach((vector, i) => bytes.set(vector, i * this.dims!));
    await this.repo.putChunks(this.kb.id, this.jobId, this.count, rows);
    await this.handle.write(new Uint8Array(bytes.buffer));
    this.count += rows.length;
    for (const row of rows) {
      this.characters += row.text.length;
      this.words += countWords(row.text);
    }
  }

  /** Makes the ingestion visible; refused (and rolled back) when the knowledge base went or changed dimensions. */
  async commit(options: CommitOptions = {}): Promise<KnowledgeBaseRecord> {
    if (this.handle) {
      await this.handle.sync();
      await this.handle.close();
      this.handle = undefined;
      await rename(this.partPath, this.finalPath);
    }
    const segment: Segment = { job_id: this.jobId, count: this.count, bytes: this.count * (this.dims ?? 0) * 4 + this.characters, words: this.words, characters: this.characters };
    let refusal: string | undefined;
    let replaced: Segment[] = [];
    const stored = await this.repo.update(this.kb.id, (current) => {
      if (current.dimensions && this.dims && current.dimensions !== this.dims) {
        refusal = `The embedding model answered vectors of ${this.dims} dimensions; this knowledge base holds vectors of ${current.dimensions}`;
        return undefined;
      }
      replaced = options.replace ? current.segments : [];
      const segments = options.replace ? [segment] : [...current.segments, segment];
      return { ...current, ...options.amend?.(current), ...totals(segments), segments, dimensions: current.dimensions ?? this.dims ?? null, generation: current.generation + 1, updated_at: new Date().toISOString() };
    });
    if (!stored) refusal = 'The knowledge base was deleted during the ingestion';
    if (refusal) {
      await this.rollback();
      throw new CommitRefusedError(refusal);
    }
    const dir = this.files.dirOf(this.kb.user_id, this.kb.id);
    for (const old of replaced) {
      await this.repo.deleteChunks(this.kb.id, old.job_id);
      await this.files.remove(dir, old.job_id);
    }
    return stored!;
  }

  /** Removes everything this ingestion wrote (safe to call twice, or after a crash left it half written). */
  async rollback(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await rm(this.partPath, { force: true });
    await rm(this.finalPath, { force: true });
    await this.repo.deleteChunks(this.kb.id, this.jobId);
  }
}

/** A knowledge base's counts from its segments. */
export function totals(segments: readonly Segment[]): Pick<KnowledgeBaseRecord, 'chunks' | 'words' | 'characters' | 'size'> {
  const sum = (pick: (s: Segment) => number) => segments.reduce((total, s) => total + pick(s), 0);
  return { chunks: sum((s) => s.count), words: sum((s) => s.words), characters: sum((s) => s.characters), size: sum((s) => s.bytes) };
}

const countWords = (text: string) => {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = text.charCodeAt(i) <= 32;
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
};
