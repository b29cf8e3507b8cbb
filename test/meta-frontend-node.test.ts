import t from 'tap';
import { z } from 'zod';
import { defineComponent, type ComponentDefinition, type FieldMap, type FieldSpec } from '../src/components/contract.js';
import { bool, dict, file, float, handle, int, message, secret, str, text } from '../src/components/fields.js';
import { componentCatalog } from '../src/langflow/component-catalog.js';
import { frontendNode } from '../src/langflow/frontend-node.js';

// A component that uses every field builder, so the generator is checked beyond the components registered today.
const kitchenSink = defineComponent({
  type: 'KitchenSink',
  aliases: ['OldKitchenSink'],
  version: 1,
  displayName: 'Kitchen Sink',
  description: 'Every kind of field.',
  category: 'testing',
  icon: 'Sink',
  fields: {
    prompt: text({ displayName: 'Prompt', multiline: true }),
    mode: str({ displayName: 'Mode', options: ['fast', 'slow'], value: 'fast' }),
    label: str({ displayName: 'Label', placeholder: 'a label' }),
    api_key: secret({ displayName: 'API Key', value: 'OPENAI_API_KEY' }),
    stream: bool({ displayName: 'Stream' }),
    max_tokens: int({ displayName: 'Max Tokens', value: 256, advanced: true }),
    temperature: float({ displayName: 'Temperature', value: 0.1 }),
    tools: handle({ displayName: 'Tools', inputTypes: ['Tool'], list: true }),
    input: message({ displayName: 'Input' }),
    docs: file({ displayName: 'Docs', fileTypes: ['pdf'] }),
    headers: dict({ displayName: 'Headers', value: { a: 1 }, show: false }),
    custom: { schema: z.string().default('from-schema'), type: 'str', inputClass: 'SomeFutureInput', displayName: 'Custom', accepts: 'text' } satisfies FieldSpec<string>,
  },
  outputs: [
    { name: 'text', displayName: 'Text', types: ['Message'], method: 'text_response' },
    { name: 'frame', displayName: 'Table', types: ['DataFrame', 'data', 'Message'], method: 'as_frame' },
  ],
  run: async () => ({}),
}) as unknown as ComponentDefinition<FieldMap>;

const node = frontendNode(kitchenSink);
const field = (name: string) => node.template[name] as Record<string, unknown>;

t.test('keys follow the Langflow input class of each field', async (t) => {
  t.match(field('prompt'), { _input_type: 'MultilineInput', type: 'str', multiline: true, input_types: ['Message'], load_from_db: false, trace_as_input: true, list: false });
  t.match(field('mode'), { _input_type: 'DropdownInput', options: ['fast', 'slow'], value: 'fast', combobox: false, options_metadata: [], dialog_inputs: {} });
  t.notOk('list' in field('mode'), 'a dropdown is not listable in Langflow');
  t.match(field('label'), { _input_type: 'StrInput', placeholder: 'a label', load_from_db: false });
  t.notOk('input_types' in field('label'), 'a StrInput has no handle');
  t.match(field('api_key'), { _input_type: 'SecretStrInput', password: true, load_from_db: true, value: 'OPENAI_API_KEY', input_types: [] });
  t.match(field('stream'), { _input_type: 'BoolInput', type: 'bool', value: false, list: false, tool_mode: false });
  t.notOk('input_types' in field('stream'));
  t.match(field('max_tokens'), { _input_type: 'IntInput', type: 'int', value: 256, advanced: true });
  t.match(field('temperature'), { _input_type: 'FloatInput', type: 'float', value: 0.1 });
  t.match(field('tools'), { _input_type: 'HandleInput', type: 'other', input_types: ['Tool'], list: true });
  t.match(field('input'), { _input_type: 'MessageInput', input_types: ['Message'], trace_as_input: true });
  t.match(field('docs'), { _input_type: 'FileInput', type: 'file', fileTypes: ['pdf'], file_path: '', value: '' });
  t.match(field('headers'), { _input_type: 'DictInput', type: 'dict', value: { a: 1 }, show: false });
  t.match(field('custom'), { _input_type: 'SomeFutureInput', value: 'from-schema', list: false }, 'unknown classes still get a usable field');
});

t.test('every field has the keys every Langflow field has', async (t) => {
  for (const name of Object.keys(kitchenSink.fields)) {
    for (const key of ['type', 'name', 'display_name', 'value', 'show', 'advanced', 'required', 'placeholder', 'dynamic', 'info', 'title_case', '_input_type']) {
      t.ok(key in field(name), `${name}.${key}`);
    }
  }
});

t.test('node-level shape', async (t) => {
  t.same(node.field_order, Object.keys(kitchenSink.fields));
  t.same(node.base_classes, ['data', 'DataFrame', 'Message'], 'de-duplicated, sorted ignoring case');
  t.same(node.outputs.map((o) => o.selected), ['Message', 'DataFrame']);
  t.equal(node.metadata.module, 'flowsvc.components.testing.KitchenSink');
  t.equal(node.template._type, 'Component');
});

t.test('the catalog groups by category and leaves aliases out', async (t) => {
  const catalog = componentCatalog([kitchenSink]);
  t.same(Object.keys(catalog), ['testing']);
  t.same(Object.keys(catalog.testing!), ['KitchenSink']);
});

t.test('the node survives a JSON round trip unchanged (no functions, no undefined)', async (t) => {
  t.same(JSON.parse(JSON.stringify(node)), node);
});
