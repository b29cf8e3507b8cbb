/**
 * `tools/call`: an MCP entry point over the run lifecycle, the same engine as /api/v1/run. The flow runs on a fresh
 * session unless the arguments carry one; a call with a progress token hears each component finish (progress) and
 * the model's tokens (log messages); cancelling the request, or its client going away, cancels the run.
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, ServerNotification, ServerRequest } from '@modelcontextprotocol/sdk/types.js';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type { McpToolArguments } from '../../../protocol/mcp.schema.js';
import type { RunEvent } from '../../engine/events.js';
import type { EventLog } from '../../runs/event-log.port.js';
import { toolErrorText, toolTexts } from '../../langflow/mcp-tool-result.js';
import { failureError } from '../../runs/failure-table.js';
import { resultAdapter, type RunAdapter, type RunResult } from '../../runs/run-adapter.js';
import type { CallsInFlight } from '../../services/mcp/calls-in-flight.js';
import type { FlowTool } from '../../services/mcp/mcp-catalog.js';
import type { PreparedRun } from '../../services/flow-runner.js';
import type { Services } from '../../services/services.js';

export type CallExtra = RequestHandlerExtra<ServerRequest, ServerNotification>;

/** A watched call's log keeps what it reports: components finishing and tokens, nothing once read. */
const watchedAdapter: RunAdapter<RunResult> = {
  log: { retention: 'until-watched' },
  event: (event: RunEvent) => (event.type === 'end_vertex' || event.type === 'token' ? { event: event.type, data: event } : undefined),
  settle: (_run, result) => result,
};

export interface ToolCall {
  tool: FlowTool;
  ownerId: string;
  args: McpToolArguments;
  requestVariables: Record<string, string>;
}

export async function callFlowTool(services: Services, calls: CallsInFlight, call: ToolCall, extra: CallExtra): Promise<CallToolResult> {
  const { tool, args } = call;
  const progressToken = extra._meta?.progressToken;
  const inputValue = args.input_value;
  const sessionId = args.session_id || randomUUID();
  let run: PreparedRun;
  try {
    run = services.runner.prepare({
      flow: tool.flow,
      userId: call.ownerId,
      inputValue: inputValue === undefined || inputValue === null ? undefined : typeof inputValue === 'string' ? inputValue : JSON.stringify(inputValue),
      sessionId,
      requestVariables: call.requestVariables,
      // Tokens are only worth streaming to a caller who listens.
      stream: progressToken !== undefined ? true : undefined,
    });
  } catch (error) {
    // A flow that does not build fails as a tool, in Langflow's words, like one that fails as it runs.
    return { content: [{ type: 'text', text: toolErrorText(tool.flow.name, (error as Error).message) }] };
  }
  const live = services.runs.start({ id: run.jobId, userId: call.ownerId, flowId: tool.flow.id, job: run.job, adapter: progressToken !== undefined ? watchedAdapter : resultAdapter });
  const forget = calls.add(extra.requestId, () => live.cancel('client_gone'));
  const onAbort = () => live.cancel('stop');
  extra.signal.addEventListener('abort', onAbort, { once: true });
  if (extra.signal.aborted) onAbort();
  if (progressToken !== undefined) report(live.log!, run.graph.order.length, progressToken, tool.flow.name, extra);
  try {
    const result = await live.answer;
    if (result.failure) return { content: [{ type: 'text', text: toolErrorText(tool.flow.name, failureError(result.failure).message) }] };
    return { content: toolTexts(result, run.selected) };
  } finally {
    forget();
    extra.signal.removeEventListener('abort', onAbort);
  }
}

/** Sends each finished component as progress and each token as a log message, as they happen. */
function report(log: EventLog, total: number, progressToken: string | number, flowName: string, extra: CallExtra): void {
  let done = 0;
  const send = (notification: ServerNotification) => void extra.sendNotification(notification).catch(() => undefined);
  log.watch(0, {
    onEvent: (entry) => {
      const event = entry.data as RunEvent;
      if (event.type === 'end_vertex') {
        done++;
        send({ method: 'notifications/progress', params: { progressToken, progress: done, total, message: event.displayName } });
      } else if (event.type === 'token') {
        send({ method: 'notifications/message', params: { level: 'info', logger: flowName, data: event.chunk } });
      }
    },
    onEnd: () => {},
  });
}
