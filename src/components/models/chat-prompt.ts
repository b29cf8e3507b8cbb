/**
 * The prompt for the model, as Langflow assembles it: the system message, then the input. A Message from the
 * user (or with no sender, like another model's output or a Prompt) is a user turn; any other sender is an
 * assistant turn (Langflow's to_lc_message). The system message goes in the SDK's `system` option, which keeps
 * it apart from conversation turns.
 */
import type { ModelMessage } from 'ai';
import type { MessageValue } from '../../values/message.js';
import { ComponentError } from '../component.error.js';

export interface ChatPrompt {
  system?: string;
  messages: ModelMessage[];
}

export function roleOf(message: MessageValue): 'user' | 'assistant' {
  return !message.sender || message.sender === 'User' ? 'user' : 'assistant';
}

export function chatPrompt(input: MessageValue | undefined, systemMessage: string, history: readonly MessageValue[] = []): ChatPrompt {
  const hasInput = input !== undefined && input.text !== '';
  if (!hasInput && !systemMessage) throw new ComponentError('The message you want to send to the model is empty.');
  const messages: ModelMessage[] = [];
  for (const past of history) if (past.text) messages.push(turn(past));
  if (hasInput) messages.push(turn(input));
  return { ...(systemMessage ? { system: systemMessage } : {}), messages };
}

function turn(message: MessageValue): ModelMessage {
  return roleOf(message) === 'user' ? { role: 'user', content: message.text } : { role: 'assistant', content: message.text };
}
