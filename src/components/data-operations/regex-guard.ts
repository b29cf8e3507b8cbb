/**
 * The regex guard. User patterns are Python patterns (translated by python-regex.ts) and may backtrack
 * catastrophically, so matching never happens on the service's event loop: it runs in the sandbox worker under a
 * deadline (REGEX_TIMEOUT_MS), and the worker is terminated when it overruns or the run is cancelled. Sizes are
 * bounded too: patterns up to MAX_PATTERN_LENGTH characters, texts up to MAX_TEXT_LENGTH. Compiling (syntax
 * check, group count) is linear and stays here, so a bad pattern is reported without a worker round trip.
 */
import { ComponentError } from '../component.error.js';
import { SandboxError } from './guarded-worker.js';
import { PatternSyntaxError, toJsRegex, type JsRegex } from './python-regex.js';
import { parseReplacement, ReplacementSyntaxError, type ReplacementPart } from './python-replacement.js';
import { groupCount, groupNames, type FoundItem } from './regex-exec.js';
import { REGEX_TIMEOUT_MS, runInSandbox, type SandboxTask } from './sandbox.js';

export const MAX_PATTERN_LENGTH = 10_000;
export const MAX_TEXT_LENGTH = 50_000_000;

/** Which operation and field a pattern came from, for error messages. */
export interface PatternSource {
  operation: string;
  field: string;
  pattern: string;
}

export interface CompiledPattern extends PatternSource {
  regex: JsRegex;
  groups: { count: number; names: string[] };
}

export function compilePattern(source: PatternSource): CompiledPattern {
  const { operation, field, pattern } = source;
  if (pattern.length > MAX_PATTERN_LENGTH) {
    throw new ComponentError(`${operation}: the regex pattern in ${field} is ${pattern.length} characters long; the limit is ${MAX_PATTERN_LENGTH}`);
  }
  try {
    const regex = toJsRegex(pattern);
    new RegExp(regex.source, regex.flags);
    return { ...source, regex, groups: { count: groupCount(regex), names: groupNames(regex) } };
  } catch (error) {
    if (!(error instanceof PatternSyntaxError || error instanceof SyntaxError)) throw error;
    const reason = error.message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
    throw new ComponentError(`${operation}: invalid regex pattern '${pattern}' (${field}): ${reason}`);
  }
}

/** The replacement template checked against the pattern's groups. */
export function compileReplacement(pattern: CompiledPattern, template: string, field: string): ReplacementPart[] {
  try {
    return parseReplacement(template, pattern.groups);
  } catch (error) {
    if (!(error instanceof ReplacementSyntaxError)) throw error;
    throw new ComponentError(`${pattern.operation}: invalid replacement '${template}' (${field}) for pattern '${pattern.pattern}': ${error.message}`);
  }
}

export function replaceGuarded(pattern: CompiledPattern, text: string, parts: ReplacementPart[], signal?: AbortSignal): Promise<string> {
  return guarded(pattern, text, { kind: 'replace', regex: pattern.regex, text, parts }, signal);
}

export function findAllGuarded(pattern: CompiledPattern, text: string, max: number, signal?: AbortSignal): Promise<FoundItem[]> {
  return guarded(pattern, text, { kind: 'findall', regex: pattern.regex, text, max }, signal);
}

async function guarded<T>(pattern: CompiledPattern, text: string, task: SandboxTask, signal?: AbortSignal): Promise<T> {
  if (text.length > MAX_TEXT_LENGTH) {
    throw new ComponentError(`${pattern.operation}: the text is ${text.length} characters long; regex operations accept up to ${MAX_TEXT_LENGTH}`);
  }
  try {
    return await runInSandbox<T>(task, { timeoutMs: REGEX_TIMEOUT_MS, signal });
  } catch (error) {
    if (!(error instanceof SandboxError)) throw error;
    const subject = `the regex '${pattern.pattern}' (${pattern.field})`;
    if (error.reason === 'timeout') throw new ComponentError(`${pattern.operation}: ${subject} was stopped: ${error.message} (catastrophic backtracking?)`);
    if (error.reason === 'aborted') throw new ComponentError(`${pattern.operation}: ${subject} was stopped: ${error.message}`);
    throw new ComponentError(`${pattern.operation}: ${subject} failed: ${error.message}`);
  }
}
