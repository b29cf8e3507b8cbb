/** v1 flow triggers: /run (batch and Langflow's stream), /run/advanced, and the deprecated /process and /predict. */
import { z } from 'zod';
import { AdvancedRunRequest, RunRequest, RunResponseSchema } from '../../../protocol/run.schema.js';
import { QueryBool } from '../../../protocol/common.schema.js';
import type { Services } from '../../services/services.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type ClientWatch, type Route } from '../../edge/route.js';
import { BadRequestError } from '../../errors/index.js';
import { frame, runStreamEntry } from '../../langflow/run-stream.js';
import { failureError } from '../../runs/failure-table.js';
import { resultAdapter, type RunAdapter, type RunResult } from '../../runs/run-adapter.js';
import type { PreparedRun } from '../../services/flow-runner.js';
import { headerVariables } from './global-vars.js';
import { replyOf } from './run-outcome.js';
import { BoundedId } from '../../../protocol/limits.js';

const FlowParam = z.object({ flow_id_or_name: BoundedId });
const StreamQuery = z.object({ stream: QueryBool.default(false) });

/** A streamed run's log holds Langflow's stream events until the request's own stream reads them. */
const streamAdapter: RunAdapter<RunResult> = { log: { retention: 'until-watched' }, event: runStreamEntry, settle: (_run, result) => result };

export function runRoutes(services: Services): Route[] {
  const { flows, runner, runs, logger } = services;

  const start = (run: PreparedRun, adapter: RunAdapter<RunResult>) => runs.start({ id: run.jobId, userId: run.job.flow.userId, flowId: run.job.flow.id, job: run.job, adapter });

  /** Langflow refuses an input value given twice: in the body and in a Chat/Text Input tweak. */
  function assertSingleInput(body: RunRequest): void {
    if (body.input_value === undefined || body.input_value === null || !body.tweaks) return;
    const names = body.input_type === 'text' ? ['TextInput', 'Text Input'] : ['ChatInput', 'Chat Input'];
    for (const [key, value] of Object.entries(body.tweaks)) {
      if (names.some((n) => key.includes(n)) && typeof value === 'object' && value !== null && 'input_value' in value) {
        throw new BadRequestError(`If you pass an input_value to the ${body.input_type} input, you cannot pass a tweak with the same name.`);
      }
    }
  }

  /** Runs to the end; the client going away cancels the run (and with it any model request). */
  async function execute(run: PreparedRun, request: ClientWatch) {
    const live = start(run, resultAdapter);
    request.onClientGone(() => live.cancel('client_gone'));
    return replyOf(run, await live.answer);
  }

  /** Streams Langflow's frames; the run is cancelled when the client goes away. */
  function stream(run: PreparedRun): Reply {
    // Returns the pipe's drain rather than awaiting it: no suspended async frame per open stream.
    return Reply.stream('text/event-stream', (sink) => {
      const pipe = new FramePipe();
      const live = start(run, streamAdapter);
      live.log!.watch(0, { onEvent: (entry) => pipe.push(frame(entry.event, entry.data)), onEnd: () => {} });
      // The client going away cancels the run (and with it the model request).
      sink.onClientGone(() => live.cancel('client_gone'));
      void live.answer
        .then((result) => pipe.push(result.failure ? frame('error', { error: failureError(result.failure).message }) : frame('end', { result: replyOf(run, result) })))
        .catch((err: unknown) => logger.error({ err, runId: live.id }, 'run stream could not end'))
        .finally(() => pipe.end());
      return pipe.drain(sink);
    });
  }

  const runRoute = (path: string, summary: string, deprecated: boolean) =>
    defineRoute({
      method: 'POST',
      path,
      summary,
      tags: ['Base'],
      auth: 'api-key',
      params: FlowParam,
      query: StreamQuery,
      body: RunRequest.optional(),
      deprecated,
      responses: { 200: { description: 'The run result, or with stream=true the event stream', schema: RunResponseSchema } },
      async handler(request) {
        const { params, query, body: maybeBody, headers, principal } = request;
        const body = maybeBody ?? RunRequest.parse({});
        assertSingleInput(body);
        const flow = await flows.runnable(principal!.userId, params.flow_id_or_name);
        const run = runner.prepare({
          flow,
          userId: principal!.userId,
          inputValue: body.input_value,
          inputType: body.input_type,
          outputType: body.output_type,
          outputComponent: body.output_component,
          tweaks: body.tweaks,
          sessionId: body.session_id,
          requestVariables: headerVariables(headers),
          stream: query.stream,
        });
        if (query.stream) return stream(run);
        const result = await execute(run, request);
        return deprecated ? Reply.json(result, 200, { deprecation: 'true', link: '</api/v1/run>; rel="successor-version"' }) : result;
      },
    });

  return [
    runRoute('/api/v1/run/:flow_id_or_name', 'Run a flow (stream=true streams its events)', false),
    runRoute('/api/v1/process/:flow_id_or_name', 'Deprecated: use /api/v1/run', true),
    runRoute('/api/v1/predict/:flow_id_or_name', 'Deprecated: use /api/v1/run', true),
    defineRoute({
      method: 'POST',
      path: '/api/v1/run/advanced/:flow_id_or_name',
      summary: 'Run a flow with explicit inputs (one result per input), outputs and tweaks',
      tags: ['Base'],
      auth: 'api-key',
      params: FlowParam,
      body: AdvancedRunRequest.optional(),
      responses: { 200: { description: 'The run result', schema: RunResponseSchema } },
      async handler(routeRequest) {
        const { params, body, headers, principal } = routeRequest;
        const request = body ?? AdvancedRunRequest.parse({});
        const flow = await flows.runnable(principal!.userId, params.flow_id_or_name);
        const inputs = request.inputs?.length ? request.inputs : [{ components: [], type: 'any' as const, input_value: undefined, session: undefined }];
        const replies = [];
        for (const input of inputs) {
          const run = runner.prepare({
            flow,
            userId: principal!.userId,
            inputValue: input.input_value,
            inputType: input.type,
            outputType: 'any',
            tweaks: request.tweaks,
            sessionId: input.session ?? request.session_id,
            requestVariables: headerVariables(headers),
          });
          if (request.outputs?.length) run.selected = run.graph.order.filter((id) => request.outputs!.includes(id));
          replies.push(await execute(run, routeRequest));
        }
        return { session_id: replies[0].session_id, outputs: replies.flatMap((r) => r.outputs) };
      },
    }),
  ];
}
