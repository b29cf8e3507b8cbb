/**
 * The "Agent Steps" content block of an Agent's message: the input, then one `tool_use` item per tool call
 * (name, input, output or error). The /api/v1/responses endpoint reads tool calls from it.
 */
import type { ContentBlock } from '../../values/message.js';
import type { ToolValue } from '../../values/tool.js';

export class AgentSteps {
  private readonly contents: Record<string, unknown>[] = [];

  constructor(input: string) {
    this.contents.push({ type: 'text', text: input, duration: 0, header: { title: 'Input', icon: 'MessageSquare' } });
  }

  /** Runs a tool and records the call, whether it answers or fails (a failure is rethrown for the model to see). */
  async call(tool: ToolValue, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown> {
    const started = performance.now();
    const step: Record<string, unknown> = { type: 'tool_use', name: tool.name, tool_input: args, output: null, error: null, duration: 0, header: { title: `Executed **${tool.name}**`, icon: 'Hammer' } };
    this.contents.push(step);
    try {
      step.output = await tool.invoke(args, signal);
      return step.output;
    } catch (error) {
      step.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      step.duration = Math.round(performance.now() - started);
    }
  }

  block(): ContentBlock {
    return { title: 'Agent Steps', contents: this.contents, allow_markdown: true, media_url: null };
  }
}
