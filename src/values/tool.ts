/**
 * Tool (Langflow's Tool): a function an Agent's model may call. A component in tool mode exposes its outputs as
 * tools (src/components/tools/tool-mode.ts); anything else that can answer a call can be one too.
 */

export interface ToolValue {
  kind: 'tool';
  /** Letters, digits, `_` and `-` only: providers reject other tool names. */
  name: string;
  description: string;
  /** JSON schema of the arguments: an object schema. */
  parameters: Record<string, unknown>;
  /** Runs the tool; the result goes back to the model as JSON (strings as they are). */
  invoke(args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export const TOOL_NAME = /^[a-zA-Z0-9_-]+$/;

export const isTool = (value: unknown): value is ToolValue =>
  typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'tool';

