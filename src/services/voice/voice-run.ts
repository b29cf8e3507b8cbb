/**
 * A voice entry point's run: the transcript (or a tool call's input) as the flow's chat input in the session, run
 * through Runs as a build (the editor's playground does the same), its events handed over as they come in the
 * build's vocabulary (src/langflow/build-events.ts), which the client receives as `flow.build.progress`.
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { BuildEvents } from '../../langflow/build-events.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import { BuildRun, type BuildEnd } from '../builds/build-run.js';
import type { FlowRunner, PreparedRun } from '../flow-runner.js';


export interface VoiceRunInput {
  flow: FlowRecord;
  userId: string;
  input: string;
  sessionId?: string;
  requestVariables: Record<string, string>;
}

/** Throws what `prepare` refuses (an invalid flow) before anything runs. */
export function prepareVoiceRun(runner: Pick<FlowRunner, 'prepare'>, input: VoiceRunInput): PreparedRun {
  return runner.prepare({
    flow: input.flow,
    userId: input.userId,
    inputValue: input.input,
    inputType: 'chat',
    outputType: 'chat',
    sessionId: input.sessionId,
    requestVariables: input.requestVariables,
    // Tokens stream into Chat Output, so speech can start on the first sentence.
    stream: true,
  });
}

export function startVoiceRun(runs: Runs, run: PreparedRun, onEntry: (event: string, data: unknown) => void): LiveRun<BuildEnd> {
  const { flow } = run.job;
  const events = new BuildEvents({ graph: run.graph, plan: run.plan, flowId: flow.id, sessionId: run.sessionId });
  const live = runs.start({ id: run.jobId, userId: flow.userId, flowId: flow.id, job: run.job, adapter: new BuildRun(events) });
  live.log!.watch(0, { onEvent: (entry) => onEntry(entry.event, entry.data), onEnd: () => {} });
  return live;
}
