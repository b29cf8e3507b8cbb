/** Type Convert: the same value as a Message, a Data or a Table (DataFrame). */
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, handle, tab } from '../fields.js';
import { asData, asMessage, asTable } from './conversions.js';

export const typeConverter = defineComponent({
  type: 'TypeConverterComponent',
  version: 1,
  displayName: 'Type Convert',
  description: 'Convert between different types (Message, Data, DataFrame)',
  category: 'processing',
  icon: 'repeat',
  fields: {
    input_data: handle({ displayName: 'Input', info: 'Accept Message, Data or DataFrame as input', inputTypes: ['Message', 'Data', 'DataFrame'], required: true }),
    auto_parse: bool({ displayName: 'Auto Parse', info: 'Detect and convert JSON/CSV strings automatically.', advanced: true }),
    output_type: tab({ displayName: 'Output Type', info: 'Select the desired output data type', options: ['Message', 'Data', 'DataFrame'] }),
  },
  // Langflow shows only the output matching output_type; each is computed when an edge asks for it.
  outputs: [
    { name: 'message_output', displayName: 'Message Output', types: ['Message'], method: 'convert_to_message' },
    { name: 'data_output', displayName: 'Data Output', types: ['Data'], method: 'convert_to_data' },
    { name: 'dataframe_output', displayName: 'DataFrame Output', types: ['DataFrame'], method: 'convert_to_dataframe' },
  ],
  async run(inputs, ctx) {
    const raw = Array.isArray(inputs.input_data) ? inputs.input_data[0] : inputs.input_data;
    if (raw === undefined || raw === null) throw new ComponentError('Field "Input" (input_data): no input; connect a Message, a Data or a DataFrame');
    const wanted = ctx.requested.size === typeConverter.outputs.length ? [outputFor(inputs.output_type)] : [...ctx.requested];
    const outputs: Record<string, unknown> = {};
    for (const name of wanted) {
      if (name === 'message_output') outputs[name] = asMessage(raw);
      if (name === 'data_output') outputs[name] = asData(raw, inputs.auto_parse);
      if (name === 'dataframe_output') outputs[name] = asTable(raw, inputs.auto_parse);
    }
    return outputs;
  },
});

function outputFor(type: 'Message' | 'Data' | 'DataFrame'): string {
  return type === 'Message' ? 'message_output' : type === 'Data' ? 'data_output' : 'dataframe_output';
}
