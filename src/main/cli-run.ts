/**
 * `flowsvc run`: the arguments and the flow file checked, then the flow run once in this process (run-once.ts).
 * `--tweaks`, `--file` and `--session-id` are those of Langflow's `lfx run`.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Tweaks } from '../langflow/tweaks.js';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { RUN_USAGE } from './cli-usage.js';
import { readFlowFile } from './flow-file.js';

const RUN_OPTIONS = {
  input: { type: 'string' },
  session: { type: 'string' },
  'session-id': { type: 'string' },
  tweaks: { type: 'string' },
  file: { type: 'string', multiple: true },
  'data-dir': { type: 'string' },
  'no-env': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function runCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, RUN_OPTIONS);
  if (values.help) return void process.stdout.write(RUN_USAGE);
  const [file, ...extra] = positionals;
  if (!file) throw new UsageError('run needs a flow file: flowsvc run <flow.json> --input TEXT');
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}" (one flow file per run)`);
  if (values.session !== undefined && values['session-id'] !== undefined && values.session !== values['session-id']) {
    throw new UsageError('--session and --session-id name the same thing: give one');
  }
  const flow = readFlowFile(file);
  const tweaks = withAttachments(flow, parseTweaks(values.tweaks), values.file ?? []);
  // The engine, actors and store load only now: help and usage mistakes answer without them.
  const { runOnce } = await import('./run-once.js');
  await runOnce({
    flow,
    input: values.input ?? null,
    session: values['session-id'] ?? values.session,
    tweaks,
    sources: { dataDir: values['data-dir'], readEnv: !values['no-env'] },
  });
}

function parseTweaks(text: string | undefined): Tweaks {
  if (text === undefined) return {};
  let tweaks: unknown;
  try {
    tweaks = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--tweaks is not JSON: ${(error as Error).message.split('\n')[0]}`);
  }
  if (typeof tweaks !== 'object' || tweaks === null || Array.isArray(tweaks)) {
    throw new UsageError('--tweaks must be a JSON object: {"<node id or display name>": {"<field>": value}, "<field>": value}');
  }
  return tweaks as Tweaks;
}

/**
 * `--file PATH` (repeatable) attaches files to the flow's File nodes: their `path` field, as a tweak, so a
 * `--tweaks` entry for the same node keeps its other fields. Each file must be readable now, not at the run's end.
 */
function withAttachments(flow: FlowRecord, tweaks: Tweaks, files: string[]): Tweaks {
  if (files.length === 0) return tweaks;
  const paths = files.map((file) => {
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat) throw new UsageError(`--file ${file}: no such file`);
    if (!stat.isFile()) throw new UsageError(`--file ${file}: not a file`);
    return resolve(file);
  });
  const nodes = (flow.data as { nodes?: unknown[] } | null)?.nodes ?? [];
  const fileNodes = nodes
    .map((node) => node as { id?: unknown; data?: { type?: unknown } })
    .filter((node) => node?.data?.type === 'File' && typeof node.id === 'string')
    .map((node) => node.id as string);
  if (fileNodes.length === 0) throw new UsageError(`--file: the flow has no File node to attach ${files.join(', ')} to`);
  const attached = { ...tweaks };
  for (const id of fileNodes) attached[id] = { ...(tweaks[id] as object | undefined), path: paths };
  return attached;
}
