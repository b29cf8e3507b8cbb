/**
 * POST /api/v1/responses (spec 2.9, 4.2, 6.2): a flow run in the shape of OpenAI's Responses API, so the official
 * `openai` client (baseURL `<service>/api/v1`, key in an `x-api-key` header) can talk to a flow. Errors of this
 * route use OpenAI's error body (openai-error.ts).
 */
import { z } from 'zod';
import { OpenAIErrorBody, ResponseObject, ResponsesRequest } from '../../../protocol/responses.schema.js';
import type { Services } from '../../app.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type ClientWatch, type Route } from '../../edge/route.js';
import { headerVariables } from '../run/global-vars.js';
import { failureError } from '../run/run-outcome.js';
import { openaiErrorBody, responseNotFound, runFailed } from './openai-error.js';
import { ResponseRuns, type ResponseRun } from './response-runs.js';
import { ResponseStreamEncoder } from './response-stream.js';

const errorReply = (description: string) => ({ description, schema: OpenAIErrorBody });

export function responsesRoutes(services: Services): Route[] {
  const { flows, runner, store, logger } = services;
  const runs = new ResponseRuns({ flows, runner, responses: store.responses });
  // Routes are built once at start-up: the moment to settle what a stopped process left running.
  void runs
    .failInterrupted()
    .then((count) => count > 0 && logger.info({ count }, 'background responses interrupted by a restart marked failed'))
    .catch((err) => logger.error({ err }, 'could not mark interrupted responses'));

  /** Runs to the end; the client going away cancels the run. */
  async function respond(prepared: ResponseRun, request: ClientWatch): Promise<ResponseObject> {
    const handle = prepared.run.start({});
    request.onClientGone(() => handle.cancel());
    const outcome = await handle.outcome;
    const response = await runs.settle(prepared, outcome);
    if (outcome.status !== 'completed') throw runFailed(failureError(outcome));
    return response;
  }

  /** SSE: tokens go out as they arrive; the run is cancelled when the client goes away. */
  function stream(prepared: ResponseRun): Reply {
    return Reply.stream('text/event-stream', (sink) => {
      const pipe = new FramePipe();
      const encoder = new ResponseStreamEncoder(prepared.who);
      pipe.push(encoder.start());
      const handle = prepared.run.start({
        onEvent: (event) => {
          if (event.type === 'token') pipe.push(encoder.token(event.chunk));
        },
      });
      sink.onClientGone(() => handle.cancel());
      void handle.outcome
        .then(async (outcome) => {
          const response = await runs.settle(prepared, outcome);
          pipe.push(outcome.status === 'completed' ? encoder.completed(response) : encoder.failed(response));
        })
        .catch((error: unknown) => logger.error({ err: error, response: prepared.who.id }, 'responses stream could not settle'))
        .finally(() => pipe.end());
      return pipe.drain(sink);
    });
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/responses',
      summary: 'Run a flow as an OpenAI Responses API call (model: flow id or endpoint name; stream: SSE)',
      tags: ['OpenAI Responses API'],
      auth: 'api-key',
      body: ResponsesRequest,
      errorBody: openaiErrorBody,
      responses: {
        200: { description: 'The Response, or with stream=true its server-sent events', schema: ResponseObject },
        400: errorReply('tools given, or no Chat Input in the flow'),
        403: errorReply('Missing or invalid API key'),
        404: errorReply('No such flow'),
        422: errorReply('The request does not match the schema (param names the field)'),
        500: errorReply('The flow run failed'),
      },
      async handler(request) {
        const { body, headers, principal } = request;
        const prepared = await runs.prepare(body, principal!.userId, headerVariables(headers));
        if (body.background) return runs.startBackground(prepared, (error) => logger.error({ err: error, response: prepared.who.id }, 'background response could not settle'));
        if (body.stream) return stream(prepared);
        return respond(prepared, request);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/responses/:response_id',
      summary: 'A stored Response by id (a background response reads in_progress until its run ends)',
      tags: ['OpenAI Responses API'],
      auth: 'api-key',
      params: z.object({ response_id: z.string() }),
      errorBody: openaiErrorBody,
      responses: { 200: { description: 'The Response', schema: ResponseObject }, 404: errorReply('No such response') },
      async handler({ params, principal }) {
        const response = await runs.find(params.response_id, principal!.userId);
        if (!response) throw responseNotFound(params.response_id);
        return response;
      },
    }),
  ];
}
