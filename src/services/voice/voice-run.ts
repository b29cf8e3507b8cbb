/**
 * A voice entry point's run: the transcript (or a tool call's input) as the flow's chat input in the session, run
 * through Runs like /api/v1/run with stream=true, its events handed over as they come (the run stream's entries).
 */
import type { FlowRecord } from '../../../protocol/flow.schema.js';
import { voiceProgressEntry } from '../../langflow/voice-events.js';
import type { LiveRun } from '../../runs/live-run.js';
import type { RunAdapter, RunResult } from '../../runs/run-adapter.js';
import type { Runs } from '../../runs/run-lifecycle.js';
import type { FlowRunner, PreparedRun } from '../flow-runner.js';

/** The run's log holds its events until the entry point reads them, at once. */
const voiceRunAdapter: RunAdapter<RunResult> = { log: { retention: 'until-watched' }, event: voiceProgressEntry, settle: (_run, result) => result };

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

export function startVoiceRun(runs: Runs, run: PreparedRun, onEntry: (event: string, data: unknown) => void): LiveRun<RunResult> {
  const live = runs.start({ id: run.jobId, userId: run.job.flow.userId, flowId: run.job.flow.id, job: run.job, adapter: voiceRunAdapter });
  live.log!.watch(0, { onEvent: (entry) => onEntry(entry.event, entry.data), onEnd: () => {} });
  return live;
}
