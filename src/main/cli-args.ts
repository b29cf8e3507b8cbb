/** Command-line parsing for the `flowsvc` commands: a mistake in the arguments is a UsageError (exit 2), never a stack trace. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The user asked for something the command cannot do as written: the message says what, on one line. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** node's parseArgs, its errors (unknown option, option without its value) turned into UsageErrors. */
export function parseCommandArgs<const T extends ParseArgsConfig['options']>(args: string[], options: T) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS_')) throw error;
    // node appends a paragraph on passing positionals that start with '-' after '--': the first sentence says it.
    throw new UsageError((error as Error).message.split('. ')[0]);
  }
}
