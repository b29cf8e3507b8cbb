/**
 * POST /api/v1/responses (spec 2.9, 4.2, 6.2): a flow run in the shape of OpenAI's Responses API, so the official
 * `openai` client (baseURL `<service>/api/v1`, key in an `x-api-key` header) can talk to a flow. Errors of this
 * route use OpenAI's error body (openai-error.ts).
 */
import { OpenAIErrorBody, ResponseObject, ResponsesRequest } from '../../../protocol/responses.schema.js';
import type { Services } from '../../app.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { headerVariables } from '../run/global-vars.js';
import { failureError } from '../run/run-outcome.js';
import { backgroundNotSupported, openaiErrorBody, runFailed } from './openai-error.js';
import { ResponseRuns, type ResponseRun } from './response-runs.js';
import { ResponseStreamEncoder } from './response-stream.js';

const errorReply = (description: string) => ({ description, schema: OpenAIErrorBody });

export function responsesRoutes(services: Services): Route[] {
  const { flows, runner, store, logger } = services;
  const runs = new ResponseRuns({ flows, runner, responses: store.responses });

  async function respond(prepared: ResponseRun, signal: AbortSignal): Promise<ResponseObject> {
    const outcome = await prepared.run.start({ signal }).outcome;
    const response = await runs.settle(prepared, outcome);
    if (outcome.status !== 'completed') throw runFailed(failureError(outcome));
    return response;
  }

  /** SSE: tokens go out as they arrive; the run is cancelled when the client goes away. */
  function stream(prepared: ResponseRun): Reply {
    return Reply.stream('text/event-stream', async (sink) => {
      const pipe = new FramePipe();
      const encoder = new ResponseStreamEncoder(prepared.who);
      pipe.push(encoder.start());
      const handle = prepared.run.start({
        signal: sink.signal,
        onEvent: (event) => {
          if (event.type === 'token') pipe.push(encoder.token(event.chunk));
        },
      });
      void handle.outcome
        .then(async (outcome) => {
          const response = await runs.settle(prepared, outcome);
          pipe.push(outcome.status === 'completed' ? encoder.completed(response) : encoder.failed(response));
        })
        .catch((error: unknown) => logger.error({ err: error, response: prepared.who.id }, 'responses stream could not settle'))
        .finally(() => pipe.end());
      await pipe.drain(sink);
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
        400: errorReply('tools given, no Chat Input in the flow, or background requested'),
        403: errorReply('Missing or invalid API key'),
        404: errorReply('No such flow'),
        422: errorReply('The request does not match the schema (param names the field)'),
        500: errorReply('The flow run failed'),
      },
      async handler({ body, headers, principal, signal }) {
        const prepared = runs.prepare(body, principal!.userId, headerVariables(headers));
        if (body.background) {
          // seam: background responses. The job service takes `prepared` here: it starts `prepared.run` as a
          // durable job, answers `inProgressResponse(prepared.who)` at once (stored under its id), and stores
          // `runs.settle(prepared, outcome)` when the job ends. GET /api/v1/responses/{id} then answers the stored
          // record's `response` (store.responses.get(id), owner-checked) — that route belongs beside this one.
          throw backgroundNotSupported();
        }
        if (body.stream) return stream(prepared);
        return respond(prepared, signal);
      },
    }),
  ];
}
