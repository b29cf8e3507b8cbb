/** Text Input and Text Output: plain text in and out of a flow. */
import { createMessage } from '../../values/message.js';
import { defineComponent } from '../contract.js';
import { text } from '../fields.js';

export const textInput = defineComponent({
  type: 'TextInput',
  version: 1,
  displayName: 'Text Input',
  description: 'Get user text inputs.',
  category: 'input_output',
  icon: 'type',
  fields: { input_value: text({ displayName: 'Text', info: 'Text to be passed as input.', multiline: true }) },
  outputs: [{ name: 'text', displayName: 'Output Text', types: ['Message'], method: 'text_response' }],
  run: async (inputs, ctx) => ({ text: createMessage({ text: inputs.input_value, flow_id: ctx.run.flowId, session_id: ctx.run.sessionId }) }),
});

export const textOutput = defineComponent({
  type: 'TextOutput',
  version: 1,
  displayName: 'Text Output',
  description: 'Sends text output via API.',
  category: 'input_output',
  icon: 'type',
  fields: { input_value: text({ displayName: 'Inputs', info: 'Text to be passed as output.', multiline: true }) },
  outputs: [{ name: 'text', displayName: 'Output Text', types: ['Message'], method: 'text_response' }],
  run: async (inputs, ctx) => ({ text: createMessage({ text: inputs.input_value, flow_id: ctx.run.flowId, session_id: ctx.run.sessionId }) }),
});
