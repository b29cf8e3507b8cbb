/**
 * The comparisons of If-Else. Text operators follow Langflow (case folded unless case-sensitive; "regex" matches at
 * the start of the text, like Python's re.match). Where Langflow silently answers false (a broken pattern, a
 * non-number for a numeric operator) this throws, so the flow author sees why.
 */
export const OPERATORS = [
  'equals',
  'not equals',
  'contains',
  'starts with',
  'ends with',
  'regex',
  'less than',
  'less than or equal',
  'greater than',
  'greater than or equal',
] as const;

export type Operator = (typeof OPERATORS)[number];

export class ConditionError extends Error {
  constructor(
    readonly field: 'match_text' | 'input_text',
    message: string,
  ) {
    super(message);
  }
}

export function evaluate(input: string, match: string, operator: Operator, caseSensitive: boolean): boolean {
  if (operator === 'regex') return regexMatches(input, match, caseSensitive);
  if (operator.startsWith('less') || operator.startsWith('greater')) return compareNumbers(input, match, operator);
  const a = caseSensitive ? input : input.toLowerCase();
  const b = caseSensitive ? match : match.toLowerCase();
  switch (operator) {
    case 'equals':
      return a === b;
    case 'not equals':
      return a !== b;
    case 'contains':
      return a.includes(b);
    case 'starts with':
      return a.startsWith(b);
    default:
      return a.endsWith(b);
  }
}

function regexMatches(input: string, pattern: string, caseSensitive: boolean): boolean {
  let regex: RegExp;
  try {
    // Python's named groups spell (?P<name>...) and (?P=name); JavaScript's (?<name>...) and \k<name>.
    const source = pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>');
    regex = new RegExp(source, caseSensitive ? 'y' : 'iy');
  } catch (error) {
    throw new ConditionError('match_text', `invalid regular expression ${JSON.stringify(pattern)}: ${(error as Error).message}`);
  }
  regex.lastIndex = 0;
  return regex.test(input);
}

function compareNumbers(input: string, match: string, operator: Operator): boolean {
  const a = number(input, 'input_text', operator);
  const b = number(match, 'match_text', operator);
  switch (operator) {
    case 'less than':
      return a < b;
    case 'less than or equal':
      return a <= b;
    case 'greater than':
      return a > b;
    default:
      return a >= b;
  }
}

function number(text: string, field: 'input_text' | 'match_text', operator: Operator): number {
  const trimmed = text.trim();
  const n = trimmed === '' ? NaN : Number(trimmed);
  if (Number.isNaN(n)) throw new ConditionError(field, `"${operator}" compares numbers, and ${JSON.stringify(text)} is not a number`);
  return n;
}
