/**
 * The tools a flow's agent called, as Response output items. The Agent records each call as a `tool_use` entry
 * in its message's "Agent Steps" block (src/components/agents/agent-steps.ts), and Chat Output keeps the block.
 * Numbering and ids follow Langflow: `fc_<n>` function calls, or `<tool>_<n>` tool calls with their results.
 */
import type { FunctionCallItem, ToolCallItem } from '../../../protocol/responses.schema.js';
import type { MessageValue } from '../../values/message.js';

interface ToolUse {
  name: string;
  input: Record<string, unknown>;
  output: unknown;
  error: string | null;
}

export function toolItems(message: MessageValue | undefined, withResults: boolean): (FunctionCallItem | ToolCallItem)[] {
  return toolUses(message).map((use, i) => (withResults ? toolCallItem(use, i + 1) : functionCallItem(use, i + 1)));
}

function toolUses(message: MessageValue | undefined): ToolUse[] {
  const uses: ToolUse[] = [];
  for (const block of message?.content_blocks ?? []) {
    for (const content of block.contents) {
      if (content.type !== 'tool_use' || typeof content.name !== 'string') continue;
      const input = typeof content.tool_input === 'object' && content.tool_input !== null ? (content.tool_input as Record<string, unknown>) : {};
      uses.push({ name: content.name, input, output: content.output ?? null, error: typeof content.error === 'string' ? content.error : null });
    }
  }
  return uses;
}

function functionCallItem(use: ToolUse, n: number): FunctionCallItem {
  return { id: `fc_${n}`, type: 'function_call', status: 'completed', name: use.name, arguments: JSON.stringify(use.input), call_id: `call_${n}` };
}

/** `queries` are the argument values as text; `results` the tool's raw output (its error when it failed). */
function toolCallItem(use: ToolUse, n: number): ToolCallItem {
  const queries = Object.values(use.input).map((value) => (typeof value === 'string' ? value : JSON.stringify(value)));
  const results = use.output ?? (use.error !== null ? { error: use.error } : []);
  return { id: `${use.name}_${n}`, type: 'tool_call', status: 'completed', tool_name: use.name, queries, results };
}
