/**
 * What every model component shares (Langflow's LCModelComponent): the Input / System Message / Stream fields,
 * the two outputs (the reply as a Message, and the model itself as a LanguageModel), and the reply itself.
 */
import { timeOrderedId } from '../../ids/time-ordered-id.js';
import type { LanguageModelValue } from '../../values/language-model.js';
import { createMessage, isMessage, type MessageValue } from '../../values/message.js';
import type { ComponentContext, OutputSpec } from '../contract.js';
import { bool, message, text } from '../fields.js';
import { chatPrompt } from './chat-prompt.js';
import { runChat, type TokenTarget } from './model-call.js';

export const baseModelFields = () => ({
  input_value: message({ displayName: 'Input', info: 'The input text to send to the model' }),
  system_message: text({ displayName: 'System Message', info: 'A system message that helps set the behavior of the assistant', multiline: true }),
  stream: bool({ displayName: 'Stream', info: 'Whether to stream the response', advanced: true }),
});

export const MODEL_OUTPUTS: OutputSpec[] = [
  { name: 'text_output', displayName: 'Model Response', types: ['Message'], method: 'text_response' },
  { name: 'model_output', displayName: 'Language Model', types: ['LanguageModel'], method: 'build_model' },
];

export interface ReplyInputs {
  input_value: unknown;
  system_message: string;
  stream: boolean;
}

/**
 * Computes the requested outputs; the model is built only once and only when something needs it. The reply is
 * chained rather than awaited, here and in modelReply: a streamed reply can stay open for minutes, and each
 * awaiting async function would keep a suspended frame (generator, context, promise) for all that time.
 */
export async function modelOutputs(build: () => Promise<LanguageModelValue>, inputs: ReplyInputs, ctx: ComponentContext): Promise<Record<string, unknown>> {
  const model = await build();
  const outputs: Record<string, unknown> = {};
  if (ctx.requested.has('model_output')) outputs.model_output = model;
  if (!ctx.requested.has('text_output')) return outputs;
  return modelReply(model, inputs, ctx).then((reply) => {
    outputs.text_output = reply;
    return outputs;
  });
}

/**
 * The model's reply as a Message with its token usage. A streamed reply keeps the id its tokens carried and
 * stays `state: "partial"` until a Chat Output stores it under that same id (src/components/io/chat-output.ts).
 */
export async function modelReply(model: LanguageModelValue, inputs: ReplyInputs, ctx: ComponentContext): Promise<MessageValue> {
  const input = isMessage(inputs.input_value) ? inputs.input_value : undefined;
  const prompt = chatPrompt(input, inputs.system_message);
  const source = { id: ctx.run.vertexId, display_name: ctx.run.displayName, source: model.model };
  const common = { session_id: ctx.run.sessionId, flow_id: ctx.run.flowId };
  let target: TokenTarget | undefined;
  const messageId = inputs.stream ? timeOrderedId() : undefined;
  if (messageId) {
    const placeholder = createMessage({ id: messageId, text: '', sender: 'Machine', sender_name: 'AI', ...common, properties: { source, state: 'partial' } });
    target = { messageId, placeholder };
  }
  // The reply's message needs the id, not the target: its placeholder goes once the first token announced it.
  return runChat(model, prompt, ctx, target).then((reply) =>
    createMessage({
      ...(messageId ? { id: messageId } : {}),
      text: reply.text,
      ...common,
      properties: { source, state: messageId ? 'partial' : 'complete', usage: reply.usage },
    }),
  );
}
