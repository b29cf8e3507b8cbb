/**
 * A responses run from request to stored Response, apart from HTTP: `prepare` resolves the flow and the
 * conversation's session and prepares the flow run; `settle` turns the finished run into its Response and
 * stores it. The route decides only when the run starts and how the result is delivered, so a background job
 * can take a prepared run and settle it the same way.
 */
import { randomUUID } from 'node:crypto';
import type { JobOutcome } from '../../../actors/job.actor.js';
import type { ResponseObject, ResponsesRequest } from '../../../protocol/responses.schema.js';
import type { FlowRunner, PreparedRun } from '../../services/flow-runner.js';
import type { FlowsService } from '../../services/flows.service.js';
import type { ResponseRepo } from '../../store/port.js';
import { failureError } from '../run/run-outcome.js';
import { chatInputRequired, flowNotFound, toolsNotSupported } from './openai-error.js';
import { completedResponse, failedResponse, inProgressResponse, type ResponseIdentity } from './response-object.js';

export interface ResponseRun {
  who: ResponseIdentity;
  userId: string;
  /** The conversation's session: Memory and the Agent read their history from it. */
  sessionId: string;
  run: PreparedRun;
}

export interface ResponseRunsDeps {
  flows: Pick<FlowsService, 'findRunnable'>;
  runner: Pick<FlowRunner, 'prepare'>;
  responses: ResponseRepo;
}

export class ResponseRuns {
  constructor(private readonly deps: ResponseRunsDeps) {}

  /** Everything a request can be refused for is refused here, before anything runs or streams. */
  async prepare(request: ResponsesRequest, userId: string, requestVariables: Record<string, string>): Promise<ResponseRun> {
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

  /** The Response of a finished run, stored before it is returned: its client may continue the conversation at once. */
  async settle(prepared: ResponseRun, outcome: JobOutcome): Promise<ResponseObject> {
    const { who } = prepared;
    const response = outcome.status === 'completed' ? completedResponse(who, prepared.run.selected, outcome) : failedResponse(who, failureError(outcome).message);
    await this.store(prepared, response);
    return response;
  }

  /**
   * A background response: stored `in_progress` before the caller hears of it, then run to its end with nobody
   * attached (it is not cancelled by the caller leaving); `settle` stores the final Response under the same id.
   */
  async startBackground(prepared: ResponseRun, onError: (error: unknown) => void): Promise<ResponseObject> {
    const pending = inProgressResponse(prepared.who);
    await this.store(prepared, pending);
    void prepared.run
      .start({})
      .outcome.then((outcome) => this.settle(prepared, outcome))
      .catch(onError);
    return pending;
  }

  /** The stored Response of this user's response id; undefined for unknown ids and other users' responses. */
  async find(id: string, userId: string): Promise<ResponseObject | undefined> {
    const record = await this.deps.responses.get(id);
    return record && record.user_id === userId ? record.response : undefined;
  }

  /** At start-up: background responses a stopped process left `in_progress` become failed, never pending forever. */
  async failInterrupted(): Promise<number> {
    const cut = await this.deps.responses.unfinished();
    await Promise.all(
      cut.map((record) =>
        this.deps.responses.put({ ...record, response: { ...record.response, status: 'failed', error: { code: 'server_error', message: 'The service stopped while this response was running; it did not finish.' } } }),
      ),
    );
    return cut.length;
  }

  private store(prepared: ResponseRun, response: ResponseObject): Promise<void> {
    return this.deps.responses.put({ id: prepared.who.id, flow_id: prepared.who.model, session_id: prepared.sessionId, user_id: prepared.userId, created_at: prepared.who.createdAt, response });
  }

  /** The session of an earlier response of this user; any other string is a session id chosen by the caller. */
  private async sessionOf(previousResponseId: string, userId: string): Promise<string> {
    const record = await this.deps.responses.get(previousResponseId);
    return record && record.user_id === userId ? record.session_id : previousResponseId;
  }
}
