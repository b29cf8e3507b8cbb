/**
 * POST /api/v1/responses (spec 2.9, 4.2, 6.2): a flow run in the shape of OpenAI's Responses API, so the official
 * `openai` client (baseURL `<service>/api/v1`, key in an `x-api-key` header) can talk to a flow. Errors of this
 * route use OpenAI's error body (openai-error.ts).
 */
import { z } from 'zod';
import { OpenAIErrorBody, ResponseObject, ResponsesRequest } from '../../../protocol/responses.schema.js';
import type { Services } from '../../services/services.js';
import { FramePipe } from '../../edge/frame-pipe.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type ClientWatch, type Route } from '../../edge/route.js';
import { failureError } from '../../runs/failure-table.js';
import { responseNotFound, runFailed } from '../../services/responses/response-errors.js';
import { inProgressResponse } from '../../services/responses/response-object.js';
import type { PreparedResponse } from '../../services/responses/response-runs.js';
import { headerVariables } from '../run/global-vars.js';
import { openaiErrorBody } from './openai-error.js';
import { isOpenAiSdk } from './openai-sdk-client.js';
import { ResponseStreamEncoder } from './response-stream.js';
import { BoundedId } from '../../../protocol/limits.js';

const errorReply = (description: string) => ({ description, schema: OpenAIErrorBody });

export function responsesRoutes(services: Services): Route[] {
  const { responses: runs, logger } = services;

  /** Runs to the end; the client going away cancels the run. */
  async function respond(prepared: PreparedResponse, request: ClientWatch): Promise<ResponseObject> {
    const run = runs.start(prepared, 'reply');
    request.onClientGone(() => run.cancel('client_gone'));
    const { response, failure } = await run.answer;
    if (failure) throw runFailed(failureError(failure));
    return response;
  }

  /** SSE: tokens go out as they arrive; the run is cancelled when the client goes away. */
  function stream(prepared: PreparedResponse, forOpenAiSdk: boolean): Reply {
    return Reply.stream('text/event-stream', (sink) => {
      const pipe = new FramePipe();
      const encoder = new ResponseStreamEncoder(prepared.who, !forOpenAiSdk);
      pipe.push(encoder.start());
      const run = runs.start(prepared, 'stream');
      run.log!.watch(0, { onEvent: (entry) => pipe.push(encoder.token(entry.data as string)), onEnd: () => {} });
      sink.onClientGone(() => run.cancel('client_gone'));
      void run.answer
        .then(({ response }) => pipe.push(response.status === 'completed' ? encoder.completed(response) : encoder.failed(response)))
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
        if (body.background) {
          await runs.start(prepared, 'background');
          return inProgressResponse(prepared.who);
        }
        if (body.stream) return stream(prepared, isOpenAiSdk(headers));
        return respond(prepared, request);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/responses/:response_id',
      summary: 'A stored Response by id (a background response reads in_progress until its run ends)',
      tags: ['OpenAI Responses API'],
      auth: 'api-key',
      params: z.object({ response_id: BoundedId }),
      errorBody: openaiErrorBody,
      responses: { 200: { description: 'The Response', schema: ResponseObject }, 404: errorReply('No such response') },
      async handler({ params, principal }) {
        const response = await runs.find(params.response_id, principal!.userId);
        if (!response) throw responseNotFound(params.response_id);
        return response;
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/responses/:response_id/cancel',
      summary: 'Cancel a background response (it ends cancelled; a finished one is returned as it is)',
      tags: ['OpenAI Responses API'],
      auth: 'api-key',
      params: z.object({ response_id: BoundedId }),
      errorBody: openaiErrorBody,
      responses: {
        200: { description: 'The Response', schema: ResponseObject },
        400: errorReply('The response was not created with background set to true'),
        404: errorReply('No such response'),
      },
      async handler({ params, principal }) {
        const response = await runs.cancel(params.response_id, principal!.userId);
        if (!response) throw responseNotFound(params.response_id);
        return response;
      },
    }),
  ];
}
