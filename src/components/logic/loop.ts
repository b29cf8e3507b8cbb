/**
 * Loop (Langflow's LoopComponent): iterates over a list of Data. Its `run` only turns the input into that list; the
 * engine does the iterating (src/engine/loops.ts): the vertices downstream of `item` run once per element, what
 * the loop edge brings back into `item` is kept, and `done` fires once, after the last element, with a table of
 * what came back. `item` then carries what Langflow's shows: how many elements there were, and them.
 */
import { createData, isData, type DataValue } from '../../values/data.js';
import { isMessage } from '../../values/message.js';
import { createTable, isTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { handle } from '../fields.js';
import { asData } from '../processing/conversions.js';

export const loopComponent = defineComponent({
  type: 'LoopComponent',
  version: 1,
  displayName: 'Loop',
  description: 'Iterates through Data or Message objects, processing items individually and aggregating results from loop inputs.',
  category: 'logic',
  icon: 'infinity',
  fields: {
    data: handle({ displayName: 'Inputs', info: 'Data to iterate over. Accepts DataFrame, Table, Data, or Message.', inputTypes: ['DataFrame', 'Table', 'Data', 'Message'] }),
  },
  outputs: [
    { name: 'item', displayName: 'Item', types: ['Data'], method: 'item_output', allowsLoop: true },
    { name: 'done', displayName: 'Done', types: ['DataFrame', 'Table'], method: 'done_output' },
  ],
  loop: {
    item: 'item',
    done: 'done',
    finish: (items, gathered) => ({
      item: createData({ count: items.length, items: items.map((item) => (item as DataValue).data) }),
      done: createTable(gathered.map((value) => (isData(value) ? value.data : asData(value, false).data))),
    }),
  },
  async run(inputs) {
    return { item: itemsOf(inputs.data) };
  },
});

/** The input as a flat list of Data: a Message is its text, a table its rows, a list each of its elements. */
function itemsOf(value: unknown): DataValue[] {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value.flatMap(itemsOf);
  if (isData(value)) return [value];
  if (isMessage(value)) return [createData({ text: value.text })];
  if (isTable(value)) return value.rows.map((row) => createData(row));
  throw new ComponentError(`Field "Inputs" (data): Data input must be a DataFrame, Data object, or list of Data objects, got ${typeof value}`);
}
