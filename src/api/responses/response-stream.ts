/**
 * The SSE encoding of a streamed responses run. Two vocabularies interleave:
 * - the spec's `response.chunk` objects (data-only frames): an empty first chunk, one `delta.content` per token,
 *   and a last chunk with an empty delta and `status` `completed` (or `failed`);
 * - OpenAI's typed events (`event: <type>` frames with `type` and `sequence_number`), from which OpenAI clients
 *   assemble the Response: created, output items with their text deltas, completed (or failed).
 * OpenAI's SDKs get only the typed events (`specChunks` false, see openai-sdk-client.ts). Every method returns
 * the text of one write; the stream ends with `data: [DONE]`.
 */
import type { FunctionCallItem, ResponseObject, ToolCallItem } from '../../../protocol/responses.schema.js';
import { inProgressResponse, messageItem, messageItemId, type ResponseIdentity } from '../../services/responses/response-object.js';

const DONE = 'data: [DONE]\n\n';

export class ResponseStreamEncoder {
  private sequence = 0;
  /** Output items announced so far; the next one gets this index. */
  private announced = 0;
  /** Index of the reply's message item once announced (by its first token, or at the end). */
  private messageIndex?: number;
  private streamed = '';

  constructor(
    private readonly who: ResponseIdentity,
    private readonly specChunks = true,
  ) {}

  start(): string {
    const response = inProgressResponse(this.who);
    return this.typed('response.created', { response }) + this.typed('response.in_progress', { response }) + this.chunk({ content: '' }, null);
  }

  /** One token of the reply: its chunk and its typed delta, in one write. */
  token(text: string): string {
    return this.openMessage() + this.text(text);
  }

  /**
   * The end of a completed run. Text the tokens did not carry (a model that did not stream, an agent) goes out as
   * one last delta; tool items precede the message, as in the Response, unless tokens announced the message first.
   */
  completed(response: ResponseObject): string {
    const tools = response.output.filter((item): item is FunctionCallItem | ToolCallItem => item.type !== 'message');
    const reply = response.output.find((item) => item.type === 'message');
    const finalText = reply?.content[0]?.text ?? '';
    const messageFirst = this.messageIndex !== undefined;
    let out = messageFirst ? '' : tools.map((item) => this.toolItem(item)).join('');
    out += this.openMessage();
    const rest = finalText.startsWith(this.streamed) ? finalText.slice(this.streamed.length) : '';
    if (rest) out += this.text(rest);
    out += this.closeMessage(finalText);
    if (messageFirst) out += tools.map((item) => this.toolItem(item)).join('');
    return out + this.chunk({}, 'completed') + this.typed('response.completed', { response }) + DONE;
  }

  /**
   * The end of a failed run: `response.failed` (OpenAI's SDKs yield it, as from OpenAI), then for other readers
   * a failed chunk whose `error` makes a generic OpenAI-style stream reader raise instead of ending quietly.
   */
  failed(response: ResponseObject): string {
    const error = { message: response.error?.message ?? 'The run failed', type: 'processing_error', code: null, param: null };
    return this.typed('response.failed', { response }) + this.chunk({}, 'failed', { error }) + DONE;
  }

  private text(delta: string): string {
    this.streamed += delta;
    const item = { item_id: messageItemId(this.who.id), output_index: this.messageIndex, content_index: 0 };
    return this.chunk({ content: delta }, null) + this.typed('response.output_text.delta', { ...item, delta, logprobs: [] });
  }

  private openMessage(): string {
    if (this.messageIndex !== undefined) return '';
    this.messageIndex = this.announced++;
    const item = { ...messageItem(this.who.id, '', 'in_progress'), content: [] };
    const part = { type: 'output_text', text: '', annotations: [] };
    return this.typed('response.output_item.added', { output_index: this.messageIndex, item }) + this.typed('response.content_part.added', { item_id: item.id, output_index: this.messageIndex, content_index: 0, part });
  }

  private closeMessage(text: string): string {
    const item = messageItem(this.who.id, text, 'completed');
    const at = { item_id: item.id, output_index: this.messageIndex, content_index: 0 };
    return (
      this.typed('response.output_text.done', { ...at, text, logprobs: [] }) +
      this.typed('response.content_part.done', { ...at, part: item.content[0] }) +
      this.typed('response.output_item.done', { output_index: this.messageIndex, item })
    );
  }

  /** A tool call known in full: announced, its arguments in one delta, and done. */
  private toolItem(item: FunctionCallItem | ToolCallItem): string {
    const output_index = this.announced++;
    if (item.type === 'tool_call') {
      return this.typed('response.output_item.added', { output_index, item: { ...item, status: 'in_progress' } }) + this.typed('response.output_item.done', { output_index, item });
    }
    const at = { item_id: item.id, output_index };
    return (
      this.typed('response.output_item.added', { output_index, item: { ...item, status: 'in_progress', arguments: '' } }) +
      this.typed('response.function_call_arguments.delta', { ...at, delta: item.arguments }) +
      this.typed('response.function_call_arguments.done', { ...at, name: item.name, arguments: item.arguments }) +
      this.typed('response.output_item.done', { output_index, item })
    );
  }

  private typed(type: string, fields: Record<string, unknown>): string {
    return `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: this.sequence++, ...fields })}\n\n`;
  }

  /**
   * A spec chunk, for readers other than OpenAI's SDKs. It also says `type: "keepalive"`: the event type that
   * typed readers (OpenAI's stream accumulator, the AI SDK's schema) take as carrying no state, where a chunk
   * without a type, or with another, would fail their parse.
   */
  private chunk(delta: Record<string, unknown>, status: 'completed' | 'failed' | null, extra: Record<string, unknown> = {}): string {
    if (!this.specChunks) return '';
    const chunk = { id: this.who.id, object: 'response.chunk', created: this.who.createdAt, model: this.who.model, delta, status, ...extra, type: 'keepalive' };
    return `data: ${JSON.stringify(chunk)}\n\n`;
  }
}
