/**
 * Merge Flows (Langflow's MergeFlows, from the Structured Data Analysis Agent starter): one point that waits for
 * every upstream branch connected to it, so running it runs them all; it answers how many values reached it.
 */
import { createMessage } from '../../values/message.js';
import { defineComponent } from '../contract.js';
import { handle } from '../fields.js';

export const mergeFlows = defineComponent({
  type: 'MergeFlows',
  version: 1,
  displayName: 'Merge Flows',
  description: 'Merges multiple flows into one. Running this triggers all connected upstream flows.',
  category: 'logic',
  icon: 'git-merge',
  fields: {
    inputs: handle({ displayName: 'Inputs', info: 'Connect any upstream component outputs here. All will run when this component executes.', inputTypes: ['Data', 'DataFrame', 'Message', 'Tool', 'JSON', 'Table'], list: true }),
  },
  outputs: [{ name: 'done', displayName: 'Done', types: ['Message'], method: 'run' }],
  async run(inputs) {
    const values = Array.isArray(inputs.inputs) ? inputs.inputs.filter((value) => value !== undefined && value !== null && value !== '') : [];
    return { done: createMessage({ text: `Merged ${values.length} flows` }) };
  },
});
