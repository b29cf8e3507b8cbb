/**
 * File ("Read File"): loads files by path, from the node's `path` or from Data/Message values on `file_path`, each
 * opened through the run's FileAccess (the caller's own files only). Outputs the texts as one Message, the files (or a single CSV's
 * rows) as a table, a single JSON file as Data, and the resolved paths.
 */
import { createData, isData } from '../../values/data.js';
import { createMessage, isMessage } from '../../values/message.js';
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, file, handle, str } from '../fields.js';
import { extensionOf, LANGFLOW_FILE_TYPES, readOne, supportOf, type ReadFile } from './file-readers.js';

export const fileComponent = defineComponent({
  type: 'File',
  version: 1,
  displayName: 'File',
  description: 'Loads content from one or more files.',
  category: 'data',
  icon: 'file-text',
  fields: {
    path: file({ displayName: 'Files', info: `Supported file extensions: ${LANGFLOW_FILE_TYPES.join(', ')}`, fileTypes: LANGFLOW_FILE_TYPES, list: true }),
    file_path: handle({
      displayName: 'Server File Path',
      info: "Data object with a 'file_path' property pointing to server file or a Message object with a path to the file. Supercedes 'Path' but supports same file types.",
      inputTypes: ['Data', 'Message'],
      list: true,
      advanced: true,
    }),
    separator: str({ displayName: 'Separator', info: 'Specify the separator to use between multiple outputs in Message format.', value: '\n\n', advanced: true }),
    silent_errors: bool({ displayName: 'Silent Errors', info: 'If true, errors will not raise an exception.', advanced: true }),
    ignore_unsupported_extensions: bool({ displayName: 'Ignore Unsupported Extensions', info: 'If true, files with unsupported extensions will not be processed.', value: true, advanced: true }),
    ignore_unspecified_files: bool({ displayName: 'Ignore Unspecified Files', info: "If true, Data with no 'file_path' property will be ignored.", advanced: true }),
  },
  outputs: [
    { name: 'message', displayName: 'Raw Content', types: ['Message'], method: 'load_files_message' },
    { name: 'dataframe', displayName: 'Files', types: ['DataFrame'], method: 'load_files' },
    { name: 'json', displayName: 'Structured Content', types: ['Data'], method: 'load_files_json' },
    { name: 'path', displayName: 'File Path', types: ['Message'], method: 'load_files_path' },
  ],
  async run(inputs, ctx) {
    // Server paths on `file_path` supersede the node's own files, as in Langflow.
    const given = inputs.file_path !== undefined && inputs.file_path !== null ? serverPaths(inputs.file_path, inputs.ignore_unspecified_files) : inputs.path;
    if (given.length === 0) throw new ComponentError('Field "Files" (path): no file selected');
    const files = await readAll(given, inputs, ctx);
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('message')) outputs.message = createMessage({ text: files.map((f) => f.text).join(inputs.separator) });
    if (ctx.requested.has('dataframe')) {
      // A lone CSV is its rows (Langflow's "Structured Content"); otherwise one row per file.
      outputs.dataframe = createTable(files.length === 1 && files[0]!.rows ? files[0]!.rows : files.map((f) => ({ file_path: f.path, text: f.text })));
    }
    // With no outgoing edges every output is asked for: a missing JSON file is then no reason to fail.
    const everything = ctx.requested.size === fileComponent.outputs.length;
    if (ctx.requested.has('json') && !(everything && !files.some((f) => f.json !== undefined))) outputs.json = jsonOf(files);
    if (ctx.requested.has('path')) outputs.path = createMessage({ text: files.map((f) => f.path).join('\n') });
    return outputs;
  },
});

type FileInputs = Parameters<(typeof fileComponent)['run']>[0];

async function readAll(given: string[], inputs: FileInputs, ctx: ComponentContext): Promise<ReadFile[]> {
  const files: ReadFile[] = [];
  for (const path of given) {
    ctx.signal.throwIfAborted();
    // A v2 file's id has no extension of its own: its stored path says what it is.
    const byId = extensionOf(path) === '' ? await resolvePath(path, ctx).catch(() => undefined) : undefined;
    const support = supportOf(byId ?? path);
    if (support !== 'readable') {
      if (support === 'unknown' && inputs.ignore_unsupported_extensions) continue;
      const why = support === 'not-yet' ? 'this file type is not supported yet' : 'unsupported file extension';
      if (inputs.silent_errors) continue;
      throw new ComponentError(`Error loading file ${path}: ${why}`);
    }
    try {
      const read = await readOne(byId ?? (await resolvePath(path, ctx)), ctx.signal);
      // The path as the caller gave it: where the service keeps the file is not theirs to learn.
      files.push({ ...read, path });
    } catch (error) {
      if (ctx.signal.aborted) throw error;
      if (inputs.silent_errors) {
        ctx.logger.warn({ path, err: error }, 'file skipped (silent errors)');
        continue;
      }
      throw new ComponentError(`Error loading file ${path}: ${reason(error)}`, { cause: error });
    }
  }
  if (files.length === 0 && !inputs.silent_errors) throw new ComponentError(`Field "Files" (path): none of the files could be read (${given.join(', ')})`);
  return files;
}

async function resolvePath(path: string, ctx: ComponentContext): Promise<string> {
  if (!ctx.files) throw new ComponentError(`File "${path}" cannot be read: this run has no files`);
  return ctx.files.open(path);
}

function serverPaths(values: unknown, ignoreUnspecified: boolean): string[] {
  const items = Array.isArray(values) ? values : [values];
  return items.flatMap((item) => {
    if (typeof item === 'string') return item ? [item] : [];
    if (isMessage(item)) return item.text ? [item.text] : [];
    const data = isData(item) ? item.data : typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    if (typeof data.file_path === 'string' && data.file_path) return [data.file_path];
    if (ignoreUnspecified) return [];
    throw new ComponentError(`Field "Server File Path" (file_path): a Data has no 'file_path' key (keys: ${Object.keys(data).join(', ') || 'none'})`);
  });
}

function jsonOf(files: ReadFile[]) {
  const json = files.filter((f) => f.json !== undefined);
  if (json.length !== 1) throw new ComponentError('Output "Structured Content" (json) needs exactly one .json file');
  const content = json[0]!.json;
  if (typeof content === 'object' && content !== null && !Array.isArray(content)) return createData(content as Record<string, unknown>);
  return createData(Array.isArray(content) ? { records: content } : { value: content });
}

function reason(error: unknown): string {
  const code = (error as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'it is a folder, not a file';
  if (code === 'EACCES') return 'permission denied';
  return error instanceof Error ? error.message : String(error);
}
