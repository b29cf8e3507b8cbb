/** Chat Input: the user's message, stored in the session's history when storing is on. */
import { createMessage } from '../../values/message.js';
import { defineComponent } from '../contract.js';
import { bool, file, str, text } from '../fields.js';

export const chatInput = defineComponent({
  type: 'ChatInput',
  version: 1,
  displayName: 'Chat Input',
  description: 'Get chat inputs from the Playground.',
  category: 'input_output',
  icon: 'MessagesSquare',
  fields: {
    input_value: text({ displayName: 'Input Text', info: 'Message to be passed as input.', multiline: true, inputTypes: [] }),
    should_store_message: bool({ displayName: 'Store Messages', info: 'Store the message in the history.', value: true, advanced: true }),
    sender: str({ displayName: 'Sender Type', info: 'Type of sender.', options: ['Machine', 'User'], value: 'User', advanced: true }),
    sender_name: text({ displayName: 'Sender Name', info: 'Name of the sender.', value: 'User', advanced: true }),
    session_id: text({ displayName: 'Session ID', info: 'The session ID of the chat. If empty, the current session ID parameter will be used.', advanced: true }),
    files: file({ displayName: 'Files', info: 'Files to be sent with the message.', fileTypes: ['txt', 'md', 'csv', 'json', 'pdf', 'png', 'jpg', 'jpeg'], list: true, advanced: true }),
  },
  outputs: [{ name: 'message', displayName: 'Chat Message', types: ['Message'], method: 'message_response' }],
  async run(inputs, ctx) {
    const message = createMessage({
      text: inputs.input_value,
      sender: inputs.sender,
      sender_name: inputs.sender_name,
      session_id: inputs.session_id || ctx.run.sessionId,
      flow_id: ctx.run.flowId,
      files: inputs.files,
      properties: { source: { id: ctx.run.vertexId, display_name: ctx.run.displayName, source: null } },
    });
    const stored = inputs.should_store_message && message.session_id ? await ctx.memory.store(message) : message;
    return { message: stored };
  },
});
