/**
 * The `flowsvc` command. Each command is one entry of COMMANDS (a module of its own, loaded when used). Exit status
 * 2 is a usage mistake (a bad argument or setting), 1 the machine not being as a setting says (environment-error.ts)
 * or a command that failed; either is told on one line, without a stack.
 */
import { AppError } from '../errors/index.js';
import { ConfigError } from '../config.js';
import { packageVersion } from '../package-version.js';
import { UsageError } from './cli-args.js';
import { USAGE } from './cli-usage.js';
import { EnvironmentError } from './environment-error.js';

type Command = (args: string[]) => Promise<void>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  serve: async () => (await import('./cli-serve.js')).serveCommand,
  'api-key': async () => (await import('./cli-api-key.js')).apiKeyCommand,
  run: async () => (await import('./cli-run.js')).runCommand,
  validate: async () => (await import('./cli-validate.js')).validateCommand,
  cluster: async () => (await import('./cli-cluster.js')).clusterCommand,
};

export async function main(argv: string[]): Promise<void> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || ['help', '--help', '-h'].includes(command)) return void process.stdout.write(USAGE);
    if (command === '--version' || command === '-v' || command === 'version') return void process.stdout.write(`flowsvc ${packageVersion()}\n`);
    const load = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
    if (!load) throw new UsageError(`unknown command "${command}" (commands: ${Object.keys(COMMANDS).join(', ')}; see flowsvc --help)`);
    return await (await load())(rest);
  } catch (error) {
    const who = command && Object.hasOwn(COMMANDS, command) ? `flowsvc ${command}` : 'flowsvc';
    if (error instanceof UsageError) exitWith(2, `${who}: ${error.message}`);
    if (error instanceof ConfigError) exitWith(2, error.message.split('\n').map((line) => `flowsvc: ${line}`).join('\n'));
    if (error instanceof EnvironmentError || error instanceof AppError) exitWith(1, `flowsvc: ${error.message}`);
    throw error;
  }
}

function exitWith(status: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(status);
}
