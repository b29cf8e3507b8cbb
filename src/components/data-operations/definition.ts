/**
 * Data Operations: exactly one operation on a Text (Message), JSON or Table input; chain instances for several.
 * Nodes of the components it replaces (TextOperations, DataFrameOperations, the older JSON-only DataOperations,
 * and Langflow's unified Operations) load as this component; their input type follows from their operation.
 */
import { arquero } from '../shared/heavy-modules.js';
import { createData } from '../../values/data.js';
import { createTable } from '../../values/table.js';
import { defineComponent } from '../contract.js';
import { dataOperationsFields } from './fields.js';
import { runJsonOperation } from './json-ops.js';
import { operationName, resolveInputType, type JsonOperation, type TableOperation, type TextOperation } from './operation-names.js';
import { OUTPUTS, outputsOf, type OpResult } from './results.js';
import { tableItems } from './structured-input.js';
import { runTableOperation } from './table-ops.js';
import { runTextOperation } from './text-ops.js';

export const dataOperations = defineComponent({
  type: 'DataOperations',
  aliases: ['TextOperations', 'DataFrameOperations', 'Operations'],
  version: 1,
  displayName: 'Data Operations',
  description: 'Perform one operation on a Message, JSON or Table input. Set Input Type to choose the operation set; chain components for several operations.',
  category: 'processing',
  icon: 'workflow',
  fields: dataOperationsFields,
  outputs: OUTPUTS,
  heavyModules: () => [arquero],
  async run(inputs, ctx) {
    // Table operations call arquero synchronously: it must be loaded first (it is not imported at start-up).
    await arquero.load();
    const operation = operationName(inputs.operation);
    const inputType = resolveInputType(inputs.input_type, operation, () => ({
      text: inputs.text_input !== '',
      table: tableItems('df', inputs.df, inputs.df_input, inputs.left_dataframe).length > 0,
    }));
    let result: OpResult;
    if (operation === '') {
      // No operation chosen: the input passes through (Langflow returns "", an empty JSON or the table).
      if (inputType === 'Text') result = { kind: 'text', text: '' };
      else if (inputType === 'JSON') result = { kind: 'json', data: createData({}) };
      else result = { kind: 'table', table: tableItems('df', inputs.df, inputs.df_input)[0] ?? createTable([]) };
    } else if (inputType === 'Text') result = await runTextOperation(operation as TextOperation, inputs, ctx.signal);
    else if (inputType === 'JSON') result = await runJsonOperation(operation as JsonOperation, inputs, ctx.signal);
    else result = runTableOperation(operation as TableOperation, inputs);
    return outputsOf(result, ctx.requested);
  },
});
