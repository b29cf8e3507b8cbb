/**
 * Write File (Langflow's SaveToFile): saves what it receives as a new file among the caller's own v2 files (as
 * Langflow's uploads what it wrote), listed and downloadable through /api/v2/files. It never writes a path on the
 * server: the name must be a bare file name, bounded. AWS and Google Drive storage are not offered here.
 */
import { createMessage } from '../../values/message.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, handle, str } from '../fields.js';
import type { FieldSpec } from '../contract.js';
import { z } from 'zod';
import { contentOf, defaultFormat, extensionOf, fileText } from './file-content.js';

/** The longest file name (before its extension) a flow may ask for. */
export const FILE_NAME_MAX_CHARS = 200;

export const saveToFile = defineComponent({
  type: 'SaveToFile',
  version: 1,
  displayName: 'Write File',
  description: "Save data to a file among your files (GET /api/v2/files lists them). Arguments: 'input', the content to save; 'file_name', without extension; 'file_format' (optional).",
  category: 'data',
  icon: 'file-text',
  fields: {
    storage_location: {
      schema: z.unknown(),
      type: 'sortableList',
      inputClass: 'SortableListInput',
      accepts: 'any',
      displayName: 'Storage Location',
      info: "Where to save the file: Local, the caller's own files, is the one offered here.",
      placeholder: 'Select Location',
      // Langflow's sortable list offers {name, icon} objects; the editor reads them as is.
      options: [{ name: 'Local', icon: 'hard-drive' }] as unknown as string[],
      value: [{ name: 'Local', icon: 'hard-drive' }],
      advanced: true,
    } satisfies FieldSpec<unknown>,
    input: handle({ displayName: 'File Content', info: 'The content to save: a DataFrame, Data or Message, or a JSON or plain text.', inputTypes: ['Data', 'JSON', 'DataFrame', 'Table', 'Message'], required: true, toolMode: true }),
    file_name: str({ displayName: 'File Name', info: "File name without extension (e.g. 'report'). Extension is added automatically.", required: true, toolMode: true }),
    file_format: str({ displayName: 'File Format (Tool)', info: "Output format: 'csv', 'json', 'txt', 'html', 'markdown'. Overrides pre-configured format.", show: false, toolMode: true }),
    append_mode: bool({ displayName: 'Append', info: 'Each save is a new file here (a new version beside the earlier ones).', show: false }),
    local_format: str({ displayName: 'File Format', info: 'Select the file format for local storage.', options: ['csv', 'excel', 'json', 'markdown', 'txt', 'html'], value: 'json' }),
  },
  outputs: [{ name: 'message', displayName: 'File Path', types: ['Message'], method: 'save_to_file' }],
  async run(inputs, ctx) {
    const location = storageOf(inputs.storage_location);
    if (location !== 'Local') throw new ComponentError(`Storage location ${location} is not available here: files are saved to your own files (Local)`);
    const root = fileNameOf(inputs.file_name);
    const content = contentOf(inputs.input);
    const format = (inputs.file_format.trim() || inputs.local_format || defaultFormat(content)).toLowerCase();
    const text = fileText(content, format);
    const extension = extensionOf(format);
    const name = root.toLowerCase().endsWith(`.${extension}`) ? root : `${root}.${extension}`;
    const save = ctx.files?.save;
    if (!save) throw new ComponentError('This run has no files to save to (a run outside the service)');
    const saved = await save(name, text);
    const kind = content.kind === 'message' ? 'Message' : content.kind === 'table' ? 'DataFrame' : 'Data';
    return { message: createMessage({ text: `${kind} saved successfully as '${saved.name}' in your files (id ${saved.id}): GET /api/v2/files/${saved.id} downloads it` }) };
  },
});

/** The chosen storage's name (Local when the node chose none). */
function storageOf(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  const name = typeof first === 'object' && first !== null ? (first as { name?: unknown }).name : first;
  return typeof name === 'string' && name ? name : 'Local';
}

/** A bare file name, or a refusal naming the field: no folders, no parent references, no control characters, bounded. */
function fileNameOf(raw: string): string {
  const name = raw.trim();
  if (!name) throw new ComponentError('Field "File Name" (file_name): File name must be provided.');
  if (name.length > FILE_NAME_MAX_CHARS) throw new ComponentError(`Field "File Name" (file_name): at most ${FILE_NAME_MAX_CHARS} characters (this one has ${name.length})`);
  // eslint-disable-next-line no-control-regex -- control characters are what is refused
  if (/[/\\:\u0000-\u001f\u007f]/.test(name) || name === '.' || name === '..' || name.startsWith('..')) {
    throw new ComponentError('Field "File Name" (file_name): must be a file name only, without paths or parent directory references');
  }
  return name;
}
