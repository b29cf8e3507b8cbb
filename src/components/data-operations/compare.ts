/**
 * How Filter Values and the table Filter compare a value with the text the user typed: numbers as numbers when
 * both sides are numeric (so "30" equals 30 and "9" is less than "10"), everything else by its text.
 */

const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The number a value holds: a finite number, or text that spells one. */
export function numericValue(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value === 'string') {
    const trimmed = value.trim();
    return NUMBER.test(trimmed) ? Number(trimmed) : undefined;
  }
  return undefined;
}

/** A value as text: strings as they are, JSON for everything else (true, null, 3.5, {"a":1}). */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

export type Comparison = 'equals' | 'not equals' | 'contains' | 'not contains' | 'starts with' | 'ends with' | 'greater than' | 'less than';

export const COMPARISONS: readonly Comparison[] = ['equals', 'not equals', 'contains', 'not contains', 'starts with', 'ends with', 'greater than', 'less than'];

/** A test of one value against the typed value; `numeric` says whether equality may compare numbers. */
export function comparer(operator: Comparison, expected: unknown, numeric: boolean): (value: unknown) => boolean {
  const text = textOf(expected);
  const number = numericValue(expected);
  const equals = (value: unknown): boolean => {
    if (numeric && number !== undefined) {
      const n = numericValue(value);
      if (n !== undefined) return n === number;
    }
    if (typeof value === 'boolean') return text.toLowerCase() === String(value);
    return value !== null && value !== undefined && textOf(value) === text;
  };
  const order = (value: unknown): number | undefined => {
    if (value === null || value === undefined) return undefined;
    const n = numericValue(value);
    if (number !== undefined && n !== undefined) return n - number;
    const t = textOf(value);
    return t < text ? -1 : t > text ? 1 : 0;
  };
  const present = (value: unknown) => value !== null && value !== undefined;
  switch (operator) {
    case 'equals':
      return equals;
    case 'not equals':
      return (value) => !equals(value);
    case 'contains':
      return (value) => present(value) && textOf(value).includes(text);
    case 'not contains':
      return (value) => !present(value) || !textOf(value).includes(text);
    case 'starts with':
      return (value) => present(value) && textOf(value).startsWith(text);
    case 'ends with':
      return (value) => present(value) && textOf(value).endsWith(text);
    case 'greater than':
      return (value) => (order(value) ?? 0) > 0;
    case 'less than':
      return (value) => (order(value) ?? 0) < 0;
  }
}
