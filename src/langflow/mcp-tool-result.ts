/**
 * A finished flow as an MCP tool's answer, the way Langflow gives it: one text item per distinct output text (a
 * Message's text, anything else written out), and a failure as an error text rather than a protocol error.
 */
import type { ExecutionResult } from '../engine/execution-result.js';
import { isMessage } from '../values/message.js';
import { outputView } from './message-dict.js';

export interface TextContent {
  [key: string]: unknown;
  type: 'text';
  text: string;
}

export function toolTexts(outcome: Pick<ExecutionResult, 'results'>, selected: readonly string[]): TextContent[] {
  const texts: string[] = [];
  for (const id of selected) {
    const values = outcome.results.get(id);
    if (!values) continue;
    for (const name in values) {
      const value = values[name];
      if (value === undefined) continue;
      const text = isMessage(value) ? value.text : textOf(outputView(value).message);
      if (!texts.includes(text)) texts.push(text);
    }
  }
  return texts.map((text) => ({ type: 'text', text }));
}

/** Langflow's wording for a flow that failed as a tool. */
export function toolErrorText(flowName: string, message: string): string {
  return `Error Executing the ${flowName} tool. Error: ${message}`;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? '';
}
