/** The Text operations (input `text_input`), with Python's string semantics as Langflow runs them. */
import { createData } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import type { InputsOf } from '../contract.js';
import type { DataOperationsFields } from './fields.js';
import type { TextOperation } from './operation-names.js';
import { pythonCapitalize, pythonSwapcase, pythonTitle } from './python-case.js';
import { codePointLength, collapseWhitespace, headCodePoints, isBlank, PY_SPACE, splitWhitespace, strip, tailCodePoints } from './python-text.js';
import { compilePattern, compileReplacement, findAllGuarded, replaceGuarded } from './regex-guard.js';
import type { OpResult } from './results.js';
import { textToTable } from './text-table.js';

type Inputs = InputsOf<DataOperationsFields>;

const NOT_WORD_OR_SPACE = new RegExp(`[^\\p{L}\\p{N}_${PY_SPACE}]`, 'gu');

export async function runTextOperation(operation: TextOperation, inputs: Inputs, signal: AbortSignal): Promise<OpResult> {
  const text = inputs.text_input;
  switch (operation) {
    case 'Word Count':
      return { kind: 'json', data: createData(wordCount(text, inputs)) };
    case 'Case Conversion':
      return { kind: 'text', text: convertCase(text, inputs.case_type) };
    case 'Text Replace':
      return { kind: 'text', text: await replace(text, inputs, signal) };
    case 'Text Extract':
      return { kind: 'items', items: await extract(text, inputs, signal) };
    case 'Text Head':
      return { kind: 'text', text: headCodePoints(text, length(operation, 'head_characters', 'Characters from Start', inputs.head_characters)) };
    case 'Text Tail': {
      const n = length(operation, 'tail_characters', 'Characters from End', inputs.tail_characters);
      return { kind: 'text', text: n === 0 ? '' : tailCodePoints(text, n) };
    }
    case 'Text Strip':
      return { kind: 'text', text: strip(text, inputs.strip_characters, stripMode(inputs.strip_mode)) };
    case 'Text Join':
      return { kind: 'joined', text: text && inputs.text_input_2 ? `${text}\n${inputs.text_input_2}` : text || inputs.text_input_2 };
    case 'Text Clean':
      return { kind: 'text', text: clean(text, inputs) };
    case 'Text to DataFrame':
      return { kind: 'table', table: textToTable(text, inputs.table_separator, inputs.has_header) };
  }
}

/** Only the enabled groups of counts; blank text counts zero everywhere. */
function wordCount(text: string, inputs: Inputs): Record<string, number> {
  const blank = isBlank(text);
  const counts: Record<string, number> = {};
  if (inputs.count_words) {
    const words = blank ? [] : splitWhitespace(text);
    counts.word_count = words.length;
    counts.unique_words = new Set(words).size;
  }
  if (inputs.count_characters) {
    counts.character_count = blank ? 0 : codePointLength(text);
    counts.character_count_no_spaces = blank ? 0 : codePointLength(text.replaceAll(' ', ''));
  }
  if (inputs.count_lines) {
    const lines = text.split('\n');
    counts.line_count = blank ? 0 : lines.length;
    counts.non_empty_lines = blank ? 0 : lines.filter((line) => !isBlank(line)).length;
  }
  return counts;
}

function convertCase(text: string, caseType: string): string {
  switch (caseType) {
    case 'uppercase':
      return text.toUpperCase();
    case 'lowercase':
      return text.toLowerCase();
    case 'title':
      return pythonTitle(text);
    case 'capitalize':
      return pythonCapitalize(text);
    case 'swapcase':
      return pythonSwapcase(text);
    default:
      throw new ComponentError(`Case Conversion: unknown case type "${caseType}" (case_type); use uppercase, lowercase, title, capitalize or swapcase`);
  }
}

async function replace(text: string, inputs: Inputs, signal: AbortSignal): Promise<string> {
  const search = inputs.search_pattern;
  if (search === '') return text;
  if (!inputs.use_regex) return text.split(search).join(inputs.replacement_text);
  const pattern = compilePattern({ operation: 'Text Replace', field: 'search_pattern', pattern: search });
  const parts = compileReplacement(pattern, inputs.replacement_text, 'replacement_text');
  return replaceGuarded(pattern, text, parts, signal);
}

async function extract(text: string, inputs: Inputs, signal: AbortSignal): Promise<unknown[]> {
  if (inputs.extract_pattern === '') return [];
  if (inputs.max_matches < 0) throw new ComponentError(`Text Extract: Max Matches (max_matches) must be 0 (all) or more, got ${inputs.max_matches}`);
  const pattern = compilePattern({ operation: 'Text Extract', field: 'extract_pattern', pattern: inputs.extract_pattern });
  return findAllGuarded(pattern, text, inputs.max_matches, signal);
}

function length(operation: string, field: string, label: string, n: number): number {
  if (n < 0) throw new ComponentError(`${operation}: ${label} (${field}) must be non-negative, got ${n}`);
  return n;
}

function stripMode(mode: string): 'both' | 'left' | 'right' {
  if (mode === 'both' || mode === 'left' || mode === 'right') return mode;
  throw new ComponentError(`Text Strip: unknown strip mode "${mode}" (strip_mode); use both, left or right`);
}

/** In Langflow's order: whitespace runs (newlines included) to one space, then symbols, then blank lines. */
function clean(text: string, inputs: Inputs): string {
  let result = text;
  if (inputs.remove_extra_spaces) result = collapseWhitespace(result, ' ');
  if (inputs.remove_special_chars) result = result.replace(NOT_WORD_OR_SPACE, '');
  if (inputs.remove_empty_lines) result = result.split('\n').filter((line) => !isBlank(line)).join('\n');
  return result;
}
