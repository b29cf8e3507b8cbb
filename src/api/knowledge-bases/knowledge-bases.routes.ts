/** /api/v1/knowledge_bases (Langflow's knowledge bases API): the caller's knowledge bases, ingestions and chunks. */
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { z } from 'zod';
import {
  BulkDeleteRequest, ChunksQuery, CreateKnowledgeBaseRequest, IngestionRunDetail, KbNameParams, KbRunParams, KnowledgeBaseInfo, PaginatedChunkResponse,
  PaginatedIngestionRunResponse, RunQuery, RunsQuery, TaskResponse,
} from '../../../protocol/knowledge-base.schema.js';
import { NotFoundError } from '../../errors/index.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';
import { headerVariables } from '../run/global-vars.js';
import { sseReply } from '../workflows/sse.js';
import { fileIdsOf, ingestOptions } from './ingest-options.js';
import { readIngestForm } from './ingest-form.js';
import { runDetail, runInfo } from './run-info.js';

const BASE = '/api/v1/knowledge_bases';
const errorReply = (description: string) => ({ description });

export function knowledgeBasesRoutes(services: Services): Route[] {
  const { knowledge } = services;
  const kbs = knowledge.service;
  const tags = ['Knowledge Bases'];
  return [
    defineRoute({ method: 'GET', path: BASE, summary: 'List your knowledge bases', tags, auth: 'user', responses: { 200: { description: 'Your knowledge bases', schema: z.array(KnowledgeBaseInfo) } }, handler: ({ principal }) => kbs.list(principal!.userId) }),
    defineRoute({
      method: 'POST',
      path: BASE,
      summary: 'Create a knowledge base with its embedding model',
      tags,
      auth: 'user',
      body: CreateKnowledgeBaseRequest,
      responses: { 201: { description: 'Created', schema: KnowledgeBaseInfo }, 400: errorReply('A name that is not 3 to 63 letters, digits, _ or -'), 404: errorReply('An embedding provider this service has not'), 409: errorReply('You already have one of that name') },
      handler: async ({ body, principal }) => Reply.json(await kbs.create(principal!.userId, body), 201),
    }),
    defineRoute({
      method: 'DELETE',
      path: BASE,
      summary: 'Delete several of your knowledge bases by name',
      tags,
      auth: 'user',
      body: BulkDeleteRequest,
      responses: { 200: { description: 'How many went' }, 404: errorReply('None of them is yours') },
      handler: async ({ body, principal }) => {
        const notFound: string[] = [];
        let deleted = 0;
        for (const name of body.kb_names) {
          try {
            await kbs.delete(principal!.userId, name);
            deleted++;
          } catch (error) {
            if (!(error instanceof NotFoundError)) throw error;
            notFound.push(name);
          }
        }
        if (deleted === 0 && notFound.length > 0) throw new NotFoundError(`Knowledge bases not found: ${notFound.join(', ')}`);
        return { message: `Successfully deleted ${deleted} knowledge base(s)`, deleted_count: deleted, ...(notFound.length ? { not_found: notFound.join(', ') } : {}) };
      },
    }),
    defineRoute({ method: 'GET', path: `${BASE}/:kb_name`, summary: 'One of your knowledge bases, with its counts', tags, auth: 'user', params: KbNameParams, responses: { 200: { description: 'It', schema: KnowledgeBaseInfo }, 404: errorReply('Not yours, or none') }, handler: ({ params, principal }) => kbs.get(principal!.userId, params.kb_name) }),
    defineRoute({
      method: 'DELETE',
      path: `${BASE}/:kb_name`,
      summary: 'Delete one of your knowledge bases (its running ingestions are stopped first)',
      tags,
      auth: 'user',
      params: KbNameParams,
      responses: { 200: { description: 'Deleted' }, 404: errorReply('Not yours, or none') },
      handler: async ({ params, principal }) => {
        await kbs.delete(principal!.userId, params.kb_name);
        return { message: `Knowledge base '${params.kb_name}' deleted successfully` };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:kb_name/chunks`,
      summary: 'Read a knowledge base chunk by chunk (page, limit, search, source_type, file_name, job_id, meta_<key>)',
      tags,
      auth: 'user',
      params: KbNameParams,
      query: ChunksQuery,
      responses: { 200: { description: 'A page of chunks', schema: PaginatedChunkResponse }, 404: errorReply('Not yours, or none') },
      handler: ({ params, query, principal }) => {
        const metadata: Record<string, string[]> = {};
        for (const [key, value] of Object.entries(query)) if (key.startsWith('meta_') && key.length > 5 && typeof value === 'string') metadata[key.slice(5)] = value.split(',');
        return kbs.chunks(principal!.userId, params.kb_name, { ...query, metadata });
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/:kb_name/ingest`,
      summary: 'Ingest files (multipart `files`, or `file_ids` of your uploads) as a background job; answers its id at once',
      tags,
      auth: 'user',
      params: KbNameParams,
      bodyKind: 'stream',
      responses: { 200: { description: 'The ingestion, queued', schema: TaskResponse }, 404: errorReply('Not yours, or none'), 413: errorReply('A file past FLOWSVC_MAX_FILE_SIZE_UPLOAD'), 422: errorReply('Bad settings or form') },
      handler: async ({ params, bodyStream, headers, principal }) => {
        const userId = principal!.userId;
        const kb = await kbs.find(userId, params.kb_name).catch((error: unknown) => {
          bodyStream?.destroy();
          throw error;
        });
        const jobId = randomUUID();
        const staging = kbs.ingestions.stagingDir(kb, jobId);
        const form = await readIngestForm(bodyStream!, headers, staging, services.userFiles.fileLimit);
        try {
          const uploaded = await Promise.all(fileIdsOf(form.fields).map((ref) => knowledge.callerFile(userId, ref)));
          const job = await kbs.ingest(userId, params.kb_name, jobId, ingestOptions(form.fields, [...form.files, ...uploaded], headerVariables(headers)));
          return { id: job.id, href: `${BASE}/${kb.name}/runs/${job.id}` };
        } catch (error) {
          await rm(staging, { recursive: true, force: true });
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:kb_name/runs`,
      summary: "A knowledge base's ingestions, newest first",
      tags,
      auth: 'user',
      params: KbNameParams,
      query: RunsQuery,
      responses: { 200: { description: 'A page of ingestions', schema: PaginatedIngestionRunResponse } },
      handler: async ({ params, query, principal }) => {
        const all = await kbs.runs(principal!.userId, params.kb_name);
        const runs = all.slice((query.page - 1) * query.limit, query.page * query.limit).map(runInfo);
        return { runs, total: all.length, page: query.page, limit: query.limit, total_pages: Math.ceil(all.length / query.limit) };
      },
    }),
    defineRoute({
      method: 'GET',
      path: `${BASE}/:kb_name/runs/:run_id`,
      summary: 'One ingestion; `stream=true` follows its progress as server-sent events (`progress`, then `end`)',
      tags,
      auth: 'user',
      params: KbRunParams,
      query: RunQuery,
      responses: { 200: { description: 'The ingestion', schema: IngestionRunDetail }, 404: errorReply('Not one of yours') },
      handler: async ({ params, query, principal }) => {
        const job = await kbs.run(principal!.userId, params.kb_name, params.run_id);
        if (!query.stream) return runDetail(job);
        const live = kbs.ingestions.live(job.id);
        if (live?.log) return sseReply((watcher) => live.log!.watch(query.sequence_id ?? 0, watcher));
        return sseReply((watcher) => {
          watcher.onEvent({ seq: 1, event: 'end', data: job });
          watcher.onEnd();
          return () => {};
        });
      },
    }),
    defineRoute({
      method: 'POST',
      path: `${BASE}/:kb_name/cancel`,
      summary: "Cancel the knowledge base's running ingestion (what it wrote is removed)",
      tags,
      auth: 'user',
      params: KbNameParams,
      responses: { 200: { description: 'Cancelled' }, 400: errorReply('Its latest ingestion already ended'), 404: errorReply('Not yours, or no ingestion') },
      handler: async ({ params, principal }) => ({ message: await kbs.cancel(principal!.userId, params.kb_name) }),
    }),
  ];
}
