/**
 * Python's str.format templates, as Langflow's Prompt, Parser and Message History use them: `{name}` placeholders
 * (with optional `!r`/`!s` conversion, `:spec`, and `.attr` / `[key]` access), `{{` and `}}` for literal braces.
 * Parsing is separate from filling so a template is checked once and its variable names are known up front.
 */
import { applySpec, FormatSpecError } from './format-spec.js';
import { pyRepr, pyStr } from './python-str.js';

export type FormatPiece =
  | { kind: 'literal'; text: string }
  | { kind: 'field'; source: string; name: string; path: (string | number)[]; conversion?: 'r' | 's' | 'a'; spec: string };

/** A template that is not valid Python format syntax; the message says where and how to fix it. */
export class TemplateSyntaxError extends Error {
  override name = 'TemplateSyntaxError';
}

export function parseFormat(template: string): FormatPiece[] {
  const pieces: FormatPiece[] = [];
  let literal = '';
  let i = 0;
  while (i < template.length) {
    const c = template[i]!;
    if (c === '{' && template[i + 1] === '{') {
      literal += '{';
      i += 2;
    } else if (c === '}' && template[i + 1] === '}') {
      literal += '}';
      i += 2;
    } else if (c === '}') {
      throw new TemplateSyntaxError(`Single '}' at position ${i}: write '}}' for a literal brace`);
    } else if (c === '{') {
      const end = closingBrace(template, i);
      if (literal) pieces.push({ kind: 'literal', text: literal });
      literal = '';
      pieces.push(parseField(template.slice(i + 1, end)));
      i = end + 1;
    } else {
      literal += c;
      i++;
    }
  }
  if (literal) pieces.push({ kind: 'literal', text: literal });
  return pieces;
}

/** The distinct placeholder names of a parsed template, in order of first use. */
export function fieldNames(pieces: readonly FormatPiece[]): string[] {
  return [...new Set(pieces.flatMap((p) => (p.kind === 'field' ? [p.name] : [])))];
}

export const MISSING: unique symbol = Symbol('missing');

/**
 * Fills a parsed template. `lookup` returns a placeholder's value, or MISSING; `onMissing` decides what a missing
 * name becomes (Langflow: an empty string for Data and messages, an error for table rows).
 */
export function fillFormat(pieces: readonly FormatPiece[], lookup: (name: string) => unknown, onMissing: (name: string) => string): string {
  let out = '';
  for (const piece of pieces) {
    if (piece.kind === 'literal') {
      out += piece.text;
      continue;
    }
    const value = lookup(piece.name);
    if (value === MISSING) {
      out += onMissing(piece.name);
      continue;
    }
    out += render(access(value, piece), piece);
  }
  return out;
}

function closingBrace(template: string, open: number): number {
  let depth = 1;
  for (let j = open + 1; j < template.length; j++) {
    if (template[j] === '{') depth++;
    else if (template[j] === '}' && --depth === 0) return j;
  }
  throw new TemplateSyntaxError(`Single '{' at position ${open} is never closed: write '{{' for a literal brace`);
}

function parseField(body: string): FormatPiece {
  const source = `{${body}}`;
  const stop = body.search(/[!:]/);
  const target = stop === -1 ? body : body.slice(0, stop);
  let rest = stop === -1 ? '' : body.slice(stop);
  let conversion: 'r' | 's' | 'a' | undefined;
  if (rest.startsWith('!')) {
    const c = rest[1];
    if (c !== 'r' && c !== 's' && c !== 'a') throw new TemplateSyntaxError(`Unknown conversion '!${c ?? ''}' in ${source}`);
    conversion = c;
    rest = rest.slice(2);
    if (rest !== '' && !rest.startsWith(':')) throw new TemplateSyntaxError(`Expected ':' after the conversion in ${source}`);
  }
  const spec = rest.startsWith(':') ? rest.slice(1) : '';
  if (spec.includes('{')) throw new TemplateSyntaxError(`Nested placeholders in a format spec are not supported: ${source}`);
  const match = /^([^.[]*)(.*)$/s.exec(target)!;
  const name = match[1]!;
  if (name === '' || /^\d+$/.test(name)) {
    throw new TemplateSyntaxError(`${source} has no variable name (positional placeholders are not supported): write '{{' and '}}' for literal braces`);
  }
  return { kind: 'field', source, name, path: accessPath(match[2]!, source), conversion, spec };
}

function accessPath(text: string, source: string): (string | number)[] {
  const path: (string | number)[] = [];
  const step = /\.([^.[]+)|\[([^\]]+)\]/gy;
  let consumed = 0;
  for (let m = step.exec(text); m; m = step.exec(text)) {
    path.push(m[1] ?? (/^\d+$/.test(m[2]!) ? Number(m[2]) : m[2]!));
    consumed = step.lastIndex;
  }
  if (consumed !== text.length) throw new TemplateSyntaxError(`Cannot read ${source}: expected '.name' or '[key]' after the variable name`);
  return path;
}

function access(value: unknown, piece: Extract<FormatPiece, { kind: 'field' }>): unknown {
  let current = value;
  for (const key of piece.path) {
    const container = typeof current === 'object' && current !== null ? (current as Record<string | number, unknown>) : undefined;
    if (!container || !(key in container)) throw new TemplateSyntaxError(`${piece.source}: ${piece.name} has no ${typeof key === 'number' ? `item ${key}` : `key '${key}'`}`);
    current = container[key];
  }
  return current;
}

function render(value: unknown, piece: Extract<FormatPiece, { kind: 'field' }>): string {
  const converted = piece.conversion === 'r' || piece.conversion === 'a' ? pyRepr(value) : piece.conversion === 's' ? pyStr(value) : value;
  try {
    return applySpec(converted, piece.spec);
  } catch (error) {
    if (error instanceof FormatSpecError) throw new TemplateSyntaxError(`${error.message} in ${piece.source}`);
    throw error;
  }
}
