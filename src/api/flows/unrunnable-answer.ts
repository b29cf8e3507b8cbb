/**
 * A saved flow's answer, with what of it will not run here: Langflow accepts flows whatever their components, and
 * so do we, but the answer lists those nodes as `unsupported_nodes` (present only when there are some).
 */
import { toFlowRead, type FlowRecord, type FlowRead } from '../../../protocol/flow.schema.js';
import type { FlowRunner } from '../../services/flow-runner.js';

export function savedFlowAnswer(runner: Pick<FlowRunner, 'unrunnable'>, flow: FlowRecord): FlowRead & { unsupported_nodes?: unknown[] } {
  const read = toFlowRead(flow);
  const unrunnable = runner.unrunnable(flow.data);
  return unrunnable.length > 0 ? { ...read, unsupported_nodes: unrunnable } : read;
}
