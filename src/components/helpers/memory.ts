/**
 * Message History ("Memory"): retrieves the session's stored messages as text and as a table, or stores a message.
 * It only ever reads the run's own session (or the one its `session_id` names): unlike Langflow, a hidden
 * `session_id` field never widens the query to every session.
 */
import { createMessage, type MessageValue } from '../../values/message.js';
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext, type InputsOf } from '../contract.js';
import { choice, handle, int, tab, text } from '../fields.js';
import { fillFormat, MISSING, parseFormat, TemplateSyntaxError } from '../shared/python-format.js';

const SENDERS = ['Machine', 'User', 'Machine and User'] as const;

const fields = {
  mode: tab({ displayName: 'Mode', info: 'Operation mode: Store messages or Retrieve messages.', options: ['Retrieve', 'Store'] }),
  message: text({ displayName: 'Message', info: 'The chat message to be stored.', toolMode: true }),
  memory: handle({ displayName: 'External Memory', info: 'Retrieve messages from an external memory. If empty, it will use the Langflow tables.', inputTypes: ['Memory'], advanced: true }),
  sender_type: choice({ displayName: 'Sender Type', info: 'Filter by sender type.', options: SENDERS, value: 'Machine and User', advanced: true }),
  sender: choice({ displayName: 'Sender', info: 'The sender of the message. Might be Machine or User. If empty, the current sender parameter will be used.', options: SENDERS, value: 'Machine and User', advanced: true }),
  sender_name: text({ displayName: 'Sender Name', info: 'Filter by sender name.', advanced: true }),
  n_messages: int({ displayName: 'Number of Messages', info: 'Number of messages to retrieve.', value: 100, min: 0, advanced: true }),
  session_id: text({ displayName: 'Session ID', info: 'The session ID of the chat. If empty, the current session ID parameter will be used.', advanced: true }),
  order: choice({ displayName: 'Order', info: 'Order of the messages.', options: ['Ascending', 'Descending'], advanced: true, required: true, toolMode: true }),
  template: text({
    displayName: 'Template',
    info: 'The template to use for formatting the data. It can contain the keys {text}, {sender} or any other key in the message data.',
    value: '{sender_name}: {text}',
    multiline: true,
    advanced: true,
  }),
};

type MemoryInputs = InputsOf<typeof fields>;

export const memory = defineComponent({
  type: 'Memory',
  version: 1,
  displayName: 'Message History',
  description: 'Stores or retrieves stored chat messages from Langflow tables or an external memory.',
  category: 'helpers',
  icon: 'message-square-more',
  fields,
  outputs: [
    { name: 'messages_text', displayName: 'Message', types: ['Message'], method: 'retrieve_messages_as_text' },
    { name: 'dataframe', displayName: 'Dataframe', types: ['DataFrame'], method: 'retrieve_messages_dataframe' },
    { name: 'stored_messages', displayName: 'Stored Messages', types: ['Message'], method: 'store_message' },
  ],
  async run(inputs, ctx) {
    if (inputs.memory !== undefined && inputs.memory !== null && inputs.memory !== '') {
      throw new ComponentError('Field "External Memory" (memory): external memories are not supported; leave it empty to use the service\'s message history');
    }
    const sessionId = inputs.session_id || ctx.run.sessionId;
    if (inputs.mode === 'Store') return { stored_messages: await store(inputs, sessionId, ctx) };

    const messages = await retrieve(inputs, sessionId, ctx);
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('messages_text')) outputs.messages_text = createMessage({ text: formatHistory(inputs.template, messages) });
    if (ctx.requested.has('dataframe')) outputs.dataframe = createTable(messages.map(messageFields));
    return outputs;
  },
});

async function store(inputs: MemoryInputs, sessionId: string, ctx: ComponentContext): Promise<MessageValue> {
  if (inputs.message === '') throw new ComponentError('Field "Message" (message): there is no message to store');
  const sender = inputs.sender === 'Machine and User' ? 'Machine' : inputs.sender;
  const message = createMessage({
    text: inputs.message,
    sender,
  sender_name: inputs.sender_name || (sender === 'User' ? 'User' : 'AI'),
  session_id: sessionId,
    flow_id: ctx.run.flowId,
  });
  return ctx.memory.store(message);
}

/** The last `n_messages` of the session (error messages left out), oldest first unless Descending. */
async function retrieve(inputs: MemoryInputs, sessionId: string, ctx: ComponentContext): Promise<MessageValue[]> {
  const wanted = inputs.n_messages;
  if (wanted === 0) return [];
  const query = {
    sessionId,
  order: inputs.order === 'Descending' ? ('DESC' as const) : ('ASC' as const),
  sender: inputs.sender_type === 'Machine and User' ? undefined : inputs.sender_type,
    senderName: inputs.sender_name || undefined,
  };
  // Error messages do not count towards n_messages: ask again for more when some were dropped.
  for (let limit = wanted; ; ) {
    const found = await ctx.memory.recent({ ...query, limit });
    const kept = found.filter((m) => !m.error);
    if (kept.length >= wanted || found.length < limit) {
      return query.order === 'DESC' ? kept.slice(0, wanted) : kept.slice(-wanted);
    }
    limit += wanted - kept.length;
  }
}

function formatHistory(template: string, messages: MessageValue[]): string {
  let pieces;
  try {
    pieces = parseFormat(template);
  } catch (error) {
    if (error instanceof TemplateSyntaxError) throw new ComponentError(`Field "Template" (template): ${error.message}`);
    throw error;
  }
  return messages
    .map((message) => {
      const fields: Record<string, unknown> = messageFields(message);
      return fillFormat(pieces, (name) => (name in fields ? fields[name] : MISSING), () => '');
    })
    .join('\n');
}

/** A stored message as Langflow's message data: the keys a template or a table row can use. */
function messageFields(message: MessageValue): Record<string, unknown> {
  return {
    id: message.id ?? null,
    text: message.text,
  sender: message.sender,
  sender_name: message.sender_name,
  session_id: message.session_id,
    context_id: message.context_id ?? null,
    timestamp: `${message.timestamp.slice(0, 10)} ${message.timestamp.slice(11, 19)} UTC`,
    flow_id: message.flow_id,
    files: message.files,
    category: message.category,
    error: message.error,
    edit: message.edit,
  };
}
