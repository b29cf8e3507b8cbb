/**
 * `flowsvc validate <flow.json|dir>...`: checks flow files offline (src/langflow/flow-validation.ts), as Langflow's
 * `lfx validate` does. Variables and default models are looked for in the environment (not with --no-env), custom
 * code compiles where FLOWSVC_CUSTOM_COMPONENTS allows it. Exit 0 when every file passes, 1 when a level fails
 * for one, 2 for a usage mistake (a path that does not exist, a bad option).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config.js';
import { variableResolver } from '../engine/variables.js';
import { MAX_LEVEL, validateFlow, type ValidationReport, type ValidationSources } from '../langflow/flow-validation.js';
import { parseCommandArgs, UsageError } from './cli-args.js';
import { VALIDATE_USAGE } from './cli-usage.js';

const OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  level: { type: 'string', short: 'l' },
  format: { type: 'string', short: 'f' },
  'no-env': { type: 'boolean' },
} as const;

type FileReport = ValidationReport & { path: string };

export async function validateCommand(args: string[]): Promise<void> {
  const { positionals, values } = parseCommandArgs(args, OPTIONS);
  if (values.help) return void process.stdout.write(VALIDATE_USAGE);
  const level = Number(values.level ?? MAX_LEVEL);
  if (!Number.isInteger(level) || level < 1 || level > MAX_LEVEL) throw new UsageError(`--level must be 1 to ${MAX_LEVEL}, got "${values.level}"`);
  const format = values.format ?? 'text';
  if (format !== 'text' && format !== 'json') throw new UsageError(`--format must be text or json, got "${format}"`);
  if (positionals.length === 0) throw new UsageError('give a flow file or a folder of them (flowsvc validate --help)');
  const files = positionals.flatMap(flowFiles);
  const config = loadConfig(process.env, { LOG_LEVEL: 'silent' });
  const customs = config.CUSTOM_COMPONENTS ? await (await import('../services/custom-components-setup.js')).setUpCustomComponents(config) : undefined;
  const env = values['no-env'] ? undefined : process.env;
  const resolver = variableResolver({ env });
  const sources: ValidationSources = { variable: (name) => resolver.resolve(name), models: { language: config.DEFAULT_MODEL, embedding: config.DEFAULT_EMBEDDING_MODEL }, customs };
  const reports: FileReport[] = [];
  try {
    for (const path of files) reports.push({ path, ...(await validateFile(path, level, sources)) });
  } finally {
    customs?.close();
  }
  process.stdout.write(format === 'json' ? `${JSON.stringify(reports, null, 2)}\n` : textOf(reports));
  if (reports.some((report) => !report.ok)) process.exitCode = 1;
}

/** A file as given, or every `.json` file under a folder (sorted, recursively). */
function flowFiles(path: string): string[] {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (!stat.isDirectory()) return [path];
  const found = readdirSync(path, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json'))
    .map((name) => join(path, name))
    .filter((file) => statSync(file).isFile())
    .sort();
  if (found.length === 0) throw new UsageError(`${path}: no .json files in this folder`);
  return found;
}

async function validateFile(path: string, level: number, sources: ValidationSources): Promise<ValidationReport> {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    const message = `Cannot read the flow: ${(error as Error).message.replace(/\s+/g, ' ')}`;
    return { ok: false, level, levels: [{ level: 1, name: 'structure', checked: true, ok: false }], issues: [{ level: 1, severity: 'error', node_id: null, node_name: null, message }] };
  }
  return validateFlow(json, level, sources);
}

/** One line per file (✓ or ✗), then its issues as `[L2 ERROR] [node] message`; a total for several files. */
function textOf(reports: FileReport[]): string {
  const lines: string[] = [];
  for (const report of reports) {
    lines.push(`${report.ok ? '✓' : '✗'} ${report.path}`);
    for (const issue of report.issues) {
      const where = issue.node_name || issue.node_id ? ` [${issue.node_name ?? issue.node_id}]` : '';
      lines.push(`  [L${issue.level} ${issue.severity.toUpperCase()}]${where} ${issue.message}`);
    }
  }
  if (reports.length > 1) {
    const passed = reports.filter((report) => report.ok).length;
    lines.push(`Validated ${reports.length} flows: ${passed} valid, ${reports.length - passed} invalid.`);
  }
  return `${lines.join('\n')}\n`;
}
