/**
 * Token usage of a run: the sum of what its model calls reported. Model components and the Agent put their
 * call's usage in `properties.usage` of the message they return, whose source is themselves; components that
 * pass a message on (Chat Output copies its properties) name another vertex as source and are not counted again.
 */
import type { ExecutionResult } from '../../engine/execution-result.js';
import type { ResponseUsage } from '../../../protocol/responses.schema.js';
import { isMessage } from '../../values/message.js';

export function runUsage(outcome: Pick<ExecutionResult, 'results'>): ResponseUsage | null {
  let reported = false;
  let input = 0;
  let output = 0;
  let total = 0;
  for (const [vertexId, outputs] of outcome.results) {
    const counted = new Set<unknown>();
    for (const value of Object.values(outputs)) {
      if (!isMessage(value) || counted.has(value) || value.properties.source?.id !== vertexId) continue;
      counted.add(value);
      const usage = value.properties.usage;
      if (!usage) continue;
      reported = true;
      input += usage.prompt_tokens;
      output += usage.completion_tokens;
      total += usage.total_tokens;
    }
  }
  if (!reported) return null;
  return {
    prompt_tokens: input,
    completion_tokens: output,
    total_tokens: total,
    input_tokens: input,
    output_tokens: output,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
  };
}
