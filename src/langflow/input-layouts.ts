/**
 * Which keys a Langflow input class writes into a template field, beyond the keys every field has.
 * Langflow builds each input class from mixins (lfx/inputs/inputs.py, 1.6-1.7) and dumps it with
 * `exclude_none`, so the key set of a field depends on its class: a BoolInput has `list` but no
 * `input_types`, a DropdownInput has `options` but no `list`, and so on. Copying those sets keeps a generated
 * field indistinguishable from one exported by Langflow itself (the starter projects' nodes).
 */
import type { FieldSpec } from '../components/contract.js';

/** A Langflow mixin, named after what it adds. */
export type Mixin =
  | 'listable'
  | 'loadFromDb'
  | 'secret'
  | 'traceAsMetadata'
  | 'traceAsInput'
  | 'toolMode'
  | 'multiline'
  | 'dropdown'
  | 'file'
  | 'handle';

const TEXT: Mixin[] = ['listable', 'loadFromDb', 'traceAsMetadata', 'toolMode'];
const MESSAGE_TEXT: Mixin[] = [...TEXT, 'traceAsInput'];
const SCALAR: Mixin[] = ['listable', 'traceAsMetadata', 'toolMode'];
const HANDLE: Mixin[] = ['listable', 'traceAsMetadata', 'handle'];

const LAYOUTS: Readonly<Record<string, readonly Mixin[]>> = {
  StrInput: TEXT,
  MessageTextInput: MESSAGE_TEXT,
  MultilineInput: [...MESSAGE_TEXT, 'multiline'],
  MessageInput: MESSAGE_TEXT,
  QueryInput: MESSAGE_TEXT,
  SecretStrInput: ['secret', 'handle'],
  MultilineSecretInput: [...MESSAGE_TEXT, 'multiline', 'secret'],
  BoolInput: SCALAR,
  IntInput: SCALAR,
  FloatInput: SCALAR,
  DropdownInput: ['dropdown', 'traceAsMetadata', 'toolMode'],
  MultiselectInput: ['listable', 'dropdown', 'traceAsMetadata', 'toolMode'],
  HandleInput: HANDLE,
  DataInput: [...HANDLE, 'traceAsInput', 'toolMode'],
  DataFrameInput: [...HANDLE, 'traceAsInput', 'toolMode'],
  // 1.6 exports of FileInput carry no tool_mode, although newer mixins add it.
  FileInput: ['listable', 'file', 'traceAsMetadata'],
  DictInput: ['listable', 'traceAsInput', 'toolMode'],
  NestedDictInput: ['listable', 'traceAsMetadata', 'traceAsInput', 'toolMode'],
  PromptInput: ['listable', 'traceAsInput', 'toolMode'],
  CodeInput: ['listable', 'traceAsInput', 'toolMode'],
  TableInput: SCALAR,
  ToolsInput: SCALAR,
  TabInput: ['traceAsMetadata', 'toolMode'],
  SliderInput: ['toolMode'],
  SortableListInput: ['traceAsMetadata', 'toolMode'],
};

/** Classes we have no table entry for get the most common layout; their FieldSpec still fills in the rest. */
export function mixinsOf(inputClass: string): readonly Mixin[] {
  return LAYOUTS[inputClass] ?? SCALAR;
}

/** The keys (with Langflow's defaults, or the spec's values) that one mixin adds. */
export function mixinKeys(mixin: Mixin, spec: FieldSpec): Record<string, unknown> {
  switch (mixin) {
    case 'listable':
      return { list: spec.list ?? false, list_add_label: 'Add More' };
    case 'loadFromDb':
      return { load_from_db: spec.loadFromDb ?? false };
    case 'secret':
      return { password: spec.password ?? true, load_from_db: spec.loadFromDb ?? true };
    case 'traceAsMetadata':
      return { trace_as_metadata: true };
    case 'traceAsInput':
      return { trace_as_input: true };
    case 'toolMode':
      return { tool_mode: spec.toolMode ?? false };
    case 'multiline':
      return { multiline: spec.multiline ?? true };
    case 'dropdown':
      return { options: spec.options ?? [], options_metadata: [], combobox: false, dialog_inputs: {} };
    case 'file':
      return { file_path: '', fileTypes: spec.fileTypes ?? [], temp_file: false };
    case 'handle':
      return { input_types: spec.inputTypes ?? [] };
  }
}
