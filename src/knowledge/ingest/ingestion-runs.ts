/**
 * Ingestions over the run lifecycle: `submit` queues one (recorded first, run in turn like any background run),
 * `cancel` stops one (here, or through its record for the instance running it), and `recovery` hands the
 * lifecycle what a stopped process left: an ingestion whose files are still staged is rolled back and queued
 * again (its writes are undone first, so running it twice writes it once), any other ends failed.
 */
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { IngestionRecord, KnowledgeBaseRecord } from '../../../protocol/knowledge-base.schema.js';
import type { SecretBox } from '../../auth/secret-box.js';
import type { ComponentContext } from '../../components/contract.js';
import { variableResolver } from '../../engine/variables.js';
import type { Logger } from '../../logger.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { RecoverySource, UnfinishedRun } from '../../runs/recovery.js';
import type { RunStart } from '../../runs/run-adapter.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { KnowledgeRepo } from '../../store/knowledge.port.js';
import { embeddingsValue } from '../embeddings/embeddings-client.js';
import { resolveEmbeddings, type EmbeddingDefaults } from '../embeddings/embedding-resolution.js';
import type { SegmentFiles } from '../vectors/segment-files.js';
import { SegmentWriter } from '../vectors/segment-writer.js';
import type { VectorIndexes } from '../vectors/vector-indexes.js';
import { ingestFiles } from './ingest-files.js';
import { ingestionGraph } from './ingestion-graph.js';
import { IngestionRun, type IngestionState } from './ingestion-run.js';

export interface IngestionSettings {
  fallbackToEnv: boolean;
  allowPrivateNetwork: boolean;
  maxChunks: number;
  embeddings: EmbeddingDefaults;
}

export interface IngestionDeps {
  runs: Runs;
  repo: KnowledgeRepo;
  files: SegmentFiles;
  indexes: VectorIndexes;
  variables: { resolve(userId: string, name: string): Promise<string | undefined> };
  secrets: SecretBox;
  logger: Logger;
  settings: IngestionSettings;
}

/** How often a running ingestion looks at its records (its knowledge base deleted, a stop asked elsewhere). */
const CHECK_MS = 1000;

/** The model selection a knowledge base was created with, as the unified field holds it. */
export const selectionOf = (kb: KnowledgeBaseRecord): unknown => kb.model_selection ?? [{ name: kb.embedding_model, provider: kb.embedding_provider }];

export class IngestionRuns {
  constructor(private readonly deps: IngestionDeps) {}

  /** Where an ingestion's uploaded files wait until it ends. */
  stagingDir(kb: KnowledgeBaseRecord, jobId: string): string {
    return join(this.deps.files.dirOf(kb.user_id, kb.id), 'staging', jobId);
  }

  /** Queues the ingestion; resolves once it is recorded (queued). */
  async submit(job: IngestionRecord, headerGlobals: Record<string, string>): Promise<IngestionRecord> {
    if (Object.keys(headerGlobals).length > 0) job = { ...job, header_globals_sealed: this.deps.secrets.seal(JSON.stringify(headerGlobals)) };
    const run = await this.deps.runs.enqueue(this.runStart(job));
    return (run.adapter as IngestionRun).record;
  }

  /** The ingestion running (or queued) in this process. */
  live(jobId: string): LiveRun<IngestionRecord> | undefined {
    const run = this.deps.runs.find(jobId);
    return run?.adapter instanceof IngestionRun ? (run as LiveRun<IngestionRecord>) : undefined;
  }

  /** Stops an unfinished ingestion: here when it runs here, else through its record (its instance looks). */
  async stop(job: IngestionRecord): Promise<IngestionRecord> {
    const live = this.live(job.id);
    if (live) {
      live.cancel('stop');
      return live.answer;
    }
    const stored = await this.deps.repo.getJob(job.id);
    if (stored && (stored.status === 'queued' || stored.status === 'in_progress')) await this.deps.repo.putJob({ ...stored, stop_requested: true });
    return stored ?? job;
  }

  recovery(): RecoverySource {
    return { name: 'knowledge ingestions', unfinished: async () => Promise.all((await this.deps.repo.unfinishedJobs()).map((job) => this.unfinished(job))) };
  }

  private async unfinished(job: IngestionRecord): Promise<UnfinishedRun> {
    const kb = await this.deps.repo.get(job.kb_id);
    const start = this.runStart({ ...job, status: 'queued' });
    // Its writes are undone before anything else: a commit that happened is kept (the record says so).
    if (kb && !kb.segments.some((segment) => segment.job_id === job.id)) await new SegmentWriter(this.deps.repo, this.deps.files, kb, job.id).rollback();
    const runnable = kb && !kb.segments.some((segment) => segment.job_id === job.id) && !job.stop_requested;
    if (runnable) return { status: 'queued', run: start, job: start.job };
    return { status: job.status === 'queued' ? 'queued' : 'in_progress', run: start };
  }

  private runStart(record: IngestionRecord): RunStart<IngestionRecord> {
    const state: IngestionState = {};
    const adapter = new IngestionRun(record, state, this.deps.repo, (final) => this.cleanUp(final));
    const { graph, plan } = ingestionGraph((ctx) => this.execute(adapter, ctx));
    const { settings } = this.deps;
    const headerGlobals = record.header_globals_sealed ? (JSON.parse(this.deps.secrets.open(record.header_globals_sealed)) as Record<string, string>) : {};
    const variables = variableResolver({
      request: headerGlobals,
      stored: (name) => this.deps.variables.resolve(record.user_id, name),
      env: settings.fallbackToEnv ? process.env : undefined,
    });
    const flow = { id: record.kb_id, name: `Knowledge base ${record.kb_name}`, userId: record.user_id };
    return {
      id: record.id,
      userId: record.user_id,
      flowId: record.kb_id,
      job: { jobId: record.id, flow, sessionId: record.id, graph, plan, overrides: new Map(), variables, allowPrivateNetwork: settings.allowPrivateNetwork },
      adapter,
    };
  }

  /** The ingestion itself, inside its run: embeds and writes, then commits, or rolls back whatever it wrote. */
  private async execute(adapter: IngestionRun, ctx: ComponentContext): Promise<Record<string, unknown>> {
    const { repo, files, indexes, settings } = this.deps;
    const { state } = adapter;
    const job = adapter.record;
    const kb = await repo.get(job.kb_id);
    if (!kb) throw this.failed(state, `Knowledge base '${job.kb_name}' was deleted before the ingestion started`);
    const writer = new SegmentWriter(repo, files, kb, job.id);
    let checked = Date.now();
    try {
      const embeddings = embeddingsValue(await resolveEmbeddings({ model: selectionOf(kb) }, ctx.variable, settings.embeddings));
      const outcome = await ingestFiles({
        job,
        writer,
        embeddings,
        signal: ctx.signal,
        maxChunks: settings.maxChunks,
        progress: async (step) => {
          state.log?.append('progress', step);
          if (Date.now() - checked < CHECK_MS) return;
          checked = Date.now();
          await this.checkStillWanted(job, state);
        },
      });
      state.items = outcome.items;
      state.bytes = outcome.bytes;
      if (outcome.items.length > 0 && outcome.items.every((item) => item.status !== 'succeeded') && outcome.items.some((item) => item.status === 'failed')) {
        throw new Error(outcome.items.map((item) => `${item.display_name}: ${item.error_message}`).join('; '));
      }
      const stored = await writer.commit({
        amend: (current) => ({
          chunk_size: job.chunk_size,
          chunk_overlap: job.chunk_overlap,
          separator: job.separator || null,
          source_types: [...new Set([...current.source_types, ...outcome.sourceTypes])].sort(),
        }),
      });
      state.chunks = outcome.chunks;
      indexes.afterCommit(stored);
      return { kb_name: kb.name, chunks: outcome.chunks, files: outcome.items.length };
    } catch (error) {
      await writer.rollback().catch((err: unknown) => this.deps.logger.warn({ err, jobId: job.id }, 'an ingestion could not undo its writes'));
      throw this.failed(state, (error as Error).message ?? String(error), error);
    }
  }

  /** A stop asked through the record (another instance), or the knowledge base deleted: the run ends now. */
  private async checkStillWanted(job: IngestionRecord, state: IngestionState): Promise<void> {
    const [stored, kb] = await Promise.all([this.deps.repo.getJob(job.id), this.deps.repo.get(job.kb_id)]);
    if (stored?.stop_requested) state.run?.cancel('stop');
    if (!kb) throw new Error(`Knowledge base '${job.kb_name}' was deleted during the ingestion`);
  }

  private failed(state: IngestionState, message: string, cause?: unknown): Error {
    state.error ??= message;
    return cause instanceof Error ? cause : new Error(message);
  }

  private async cleanUp(final: IngestionRecord): Promise<void> {
    for (const file of final.files) if (file.staged) await rm(file.path, { force: true });
    const kb = await this.deps.repo.get(final.kb_id);
    if (kb) await rm(this.stagingDir(kb, final.id), { recursive: true, force: true });
  }
}
