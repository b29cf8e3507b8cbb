/**
 * Responses runs over the run lifecycle: `prepare` resolves the flow and the conversation's session and prepares
 * the flow run; a ResponseRun adapter turns the ended run into its Response and stores it under the response id.
 * The route only picks how the run is delivered (a reply, an event stream, a background job).
 */
import { randomUUID } from 'node:crypto';
import type { ResponseObject, ResponsesRequest } from '../../../protocol/responses.schema.js';
import { failureError } from '../../runs/failure-table.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { RunAdapter, RunResult } from '../../runs/run-adapter.js';
import type { RunFailure } from '../../runs/run-failure.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { RecoverySource } from '../../runs/recovery.js';
import type { ResponseRepo } from '../../store/port.js';
import type { FlowRunner, PreparedRun } from '../flow-runner.js';
import type { FlowsService } from '../flows.service.js';
import { chatInputRequired, flowNotFound, onlyBackgroundCancels, toolsNotSupported } from './response-errors.js';
import { cancelledResponse, completedResponse, failedResponse, inProgressResponse, type ResponseIdentity } from './response-object.js';

export interface PreparedResponse {
  who: ResponseIdentity;
  userId: string;
  /** The conversation's session: Memory and the Agent read their history from it. */
  sessionId: string;
  run: PreparedRun;
}

export type ResponseDelivery = 'reply' | 'stream' | 'background';

/** A response's answer: the Response, and why its run failed (a reply answers with that failure's status). */
export interface ResponseAnswer {
  response: ResponseObject;
  failure?: RunFailure;
}

export type ResponseRunHandle = LiveRun<ResponseAnswer>;

export interface ResponseRunsDeps {
  runs: Runs;
  flows: Pick<FlowsService, 'findRunnable'>;
  runner: Pick<FlowRunner, 'prepare'>;
  responses: ResponseRepo;
}

/** One response's run: its Response as the run ends, stored before it is given (a client may continue at once). */
class ResponseRun implements RunAdapter<ResponseAnswer> {
  /** A streamed response's log holds its tokens until the request's own stream reads them. */
  readonly log?: RunAdapter<ResponseAnswer>['log'];

  constructor(
    private readonly who: ResponseIdentity,
    private readonly record: { userId: string; sessionId: string; selected?: readonly string[] },
    private readonly responses: ResponseRepo,
    readonly delivery: ResponseDelivery,
  ) {
    if (delivery === 'stream') this.log = { retention: 'until-watched' };
  }

  event: RunAdapter<ResponseAnswer>['event'] = (event) => (event.type === 'token' ? { event: 'token', data: event.chunk } : undefined);

  /** A background response is stored `in_progress` before the caller hears of it. */
  queued(): Promise<void> {
    return this.store(inProgressResponse(this.who));
  }

  settle(_run: ResponseRunHandle, result: RunResult): ResponseAnswer {
    const { failure } = result;
    if (failure?.kind === 'cancelled') return { response: cancelledResponse(this.who), failure };
    if (failure) return { response: failedResponse(this.who, failureError(failure).message), failure };
    return { response: completedResponse(this.who, this.record.selected ?? [], result) };
  }

  persist(_run: ResponseRunHandle, answer: ResponseAnswer): Promise<void> {
    return this.store(answer.response);
  }

  private store(response: ResponseObject): Promise<void> {
    const { who, record } = this;
    return this.responses.put({ id: who.id, flow_id: who.model, session_id: record.sessionId, user_id: record.userId, created_at: who.createdAt, response });
  }
}

export class ResponseRuns {
  constructor(private readonly deps: ResponseRunsDeps) {}

  /** Everything a request can be refused for is refused here, before anything runs or streams. */
  async prepare(request: ResponsesRequest, userId: string, requestVariables: Record<string, string>): Promise<PreparedResponse> {
    if (request.tools !== undefined && request.tools !== null) throw toolsNotSupported();
    const flow = await this.deps.flows.findRunnable(userId, request.model);
    if (!flow) throw flowNotFound(request.model);
    const id = `resp_${randomUUID().replaceAll('-', '')}`;
    const previousResponseId = request.previous_response_id || null;
    // A new conversation's session is named after its first response, which therefore continues it even unrecorded.
    const sessionId = previousResponseId ? await this.sessionOf(previousResponseId, userId) : id;
    const run = this.deps.runner.prepare({
      flow,
      userId,
      inputValue: request.input,
      inputType: 'chat',
      outputType: 'chat',
      sessionId,
      requestVariables,
      stream: request.stream,
      jobId: id,
    });
    if (![...run.graph.vertices.values()].some((vertex) => vertex.component.type === 'ChatInput')) throw chatInputRequired();
    const who: ResponseIdentity = {
      id,
      createdAt: Math.floor(Date.now() / 1000),
      model: flow.id,
      previousResponseId,
      includeToolResults: request.include?.includes('tool_call.results') ?? false,
    };
    return { who, userId, sessionId, run };
  }

  /**
   * Starts the run: a reply or a stream starts now; a background response is queued once it is stored
   * `in_progress`, and runs to its end with nobody attached (the caller leaving does not cancel it).
   */
  start(prepared: PreparedResponse, delivery: 'reply' | 'stream'): ResponseRunHandle;
  start(prepared: PreparedResponse, delivery: 'background'): Promise<ResponseRunHandle>;
  start(prepared: PreparedResponse, delivery: ResponseDelivery): ResponseRunHandle | Promise<ResponseRunHandle> {
    const { who, userId, sessionId, run } = prepared;
    const adapter = new ResponseRun(who, { userId, sessionId, selected: run.selected }, this.deps.responses, delivery);
    const start = { id: who.id, userId, flowId: who.model, job: run.job, adapter };
    return delivery === 'background' ? this.deps.runs.enqueue(start) : this.deps.runs.start(start);
  }

  /** The stored Response of this user's response id; undefined for unknown ids and other users' responses. */
  async find(id: string, userId: string): Promise<ResponseObject | undefined> {
    const record = await this.deps.responses.get(id);
    return record && record.user_id === userId ? record.response : undefined;
  }

  /**
   * Cancels a background response of this user (OpenAI's cancel): a queued or running one ends `cancelled`; a
   * finished one is returned as it is. Undefined for unknown ids and other users' responses.
   */
  async cancel(id: string, userId: string): Promise<ResponseObject | undefined> {
    const live = this.deps.runs.find(id) as ResponseRunHandle | undefined;
    if (!live || !(live.adapter instanceof ResponseRun) || live.userId !== userId) return this.find(id, userId);
    if (live.adapter.delivery !== 'background') throw onlyBackgroundCancels();
    live.cancel('stop');
    return (await live.answer).response;
  }

  /** Background responses a stopped process left `in_progress`: they end failed, never pending forever. */
  recovery(): RecoverySource {
    return {
      name: 'background responses',
      unfinished: async () =>
        (await this.deps.responses.unfinished()).map((record) => {
          const who: ResponseIdentity = { id: record.id, createdAt: record.created_at, model: record.flow_id, previousResponseId: record.response.previous_response_id, includeToolResults: false };
          const adapter = new ResponseRun(who, { userId: record.user_id, sessionId: record.session_id }, this.deps.responses, 'background');
          return { status: 'in_progress' as const, run: { id: record.id, userId: record.user_id, flowId: record.flow_id, adapter } };
        }),
    };
  }

  /** The session of an earlier response of this user; any other string is a session id chosen by the caller. */
  private async sessionOf(previousResponseId: string, userId: string): Promise<string> {
    const record = await this.deps.responses.get(previousResponseId);
    return record && record.user_id === userId ? record.session_id : previousResponseId;
  }
}
