/** `flowsvc run`: the arguments and the flow file checked, then the flow run once in this process (run-once.ts). */
import { parseCommandArgs, UsageError } from './cli-args.js';
import { RUN_USAGE } from './cli-usage.js';
import { readFlowFile } from './flow-file.js';

const RUN_OPTIONS = {
  input: { type: 'string' },
  session: { type: 'string' },
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
  const flow = readFlowFile(file);
  // The engine, actors and store load only now: help and usage mistakes answer without them.
  const { runOnce } = await import('./run-once.js');
  await runOnce({ flow, input: values.input ?? null, session: values.session, sources: { dataDir: values['data-dir'], readEnv: !values['no-env'] } });
}
