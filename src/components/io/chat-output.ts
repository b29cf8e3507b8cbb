/** Chat Output: the flow's answer as a Machine message, stored in the session's history when storing is on. */
import { createMessage, isMessage } from '../../values/message.js';
import { defineComponent } from '../contract.js';
import { bool, handle, str, text } from '../fields.js';
import { chatText } from './chat-text.js';

export const chatOutput = defineComponent({
  type: 'ChatOutput',
  version: 1,
  displayName: 'Chat Output',
  description: 'Display a chat message in the Playground.',
  category: 'input_output',
  icon: 'MessagesSquare',
  fields: {
    input_value: handle({ displayName: 'Inputs', info: 'Message to be passed as output.', inputTypes: ['Data', 'DataFrame', 'Message'], required: true }),
    should_store_message: bool({ displayName: 'Store Messages', info: 'Store the message in the history.', value: true, advanced: true }),
    sender: str({ displayName: 'Sender Type', info: 'Type of sender.', options: ['Machine', 'User'], value: 'Machine', advanced: true }),
    sender_name: text({ displayName: 'Sender Name', info: 'Name of the sender.', value: 'AI', advanced: true }),
    session_id: text({ displayName: 'Session ID', info: 'The session ID of the chat. If empty, the current session ID parameter will be used.', advanced: true }),
    data_template: text({ displayName: 'Data Template', info: 'Template to convert Data to Text. If left empty, it will be dynamically set to the Data\'s text key.', value: '{text}', advanced: true }),
    clean_data: bool({ displayName: 'Basic Clean Data', info: 'Whether to clean data before converting to string.', value: true, advanced: true }),
  },
  outputs: [{ name: 'message', displayName: 'Output Message', types: ['Message'], method: 'message_response' }],
  async run(inputs, ctx) {
    const incoming = inputs.input_value;
    const upstream = ctx.sourceOf('input_value');
    // A model that streamed its reply hands over the id its tokens carried (state "partial"): the stored message
    // keeps it, so the stream's add_message events and tokens all name one message.
    const streamed = isMessage(incoming) && incoming.properties.state === 'partial' && incoming.id ? { id: incoming.id } : {};
    // Langflow names the model as the source of an LLM's message.
    const upstreamSource = upstream?.source ?? (isMessage(incoming) && incoming.properties.source?.id === upstream?.id ? incoming.properties.source?.source : null) ?? null;
    const message = createMessage({
      ...streamed,
      text: chatText(incoming, inputs.clean_data),
      sender: inputs.sender,
      sender_name: inputs.sender_name,
      session_id: inputs.session_id || (isMessage(incoming) ? incoming.session_id : null) || ctx.run.sessionId,
      flow_id: ctx.run.flowId,
      properties: {
        ...(isMessage(incoming) ? incoming.properties : {}),
        source: upstream ? { id: upstream.id, display_name: upstream.displayName, source: upstreamSource } : { id: null, display_name: null, source: null },
        icon: 'MessagesSquare',
        state: 'complete',
      },
      // Langflow reuses the incoming Message, so an Agent's steps reach the stored message.
      content_blocks: isMessage(incoming) ? incoming.content_blocks : [],
    });
    const stored = inputs.should_store_message && message.session_id ? await ctx.memory.store(message) : message;
    return { message: stored };
  },
});
