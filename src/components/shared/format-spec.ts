/**
 * Python's format-spec mini-language ([[fill]align][sign][z][#][0][width][grouping][.precision][type]) for the
 * `{value:spec}` placeholders of Parser, Memory and Prompt templates. Covers strings, integers and floats.
 */
import { pyStr } from './python-str.js';

interface Spec {
  fill: string;
  align?: string;
  sign: string;
  alternate: boolean;
  zero: boolean;
  width: number;
  grouping: string;
  precision?: number;
  type: string;
}

const SPEC = /^(?:(.)?([<>=^]))?([+\- ])?z?(#)?(0)?(\d+)?([,_])?(?:\.(\d+))?([bcdeEfFgGnosxX%])?$/su;

export class FormatSpecError extends Error {}

export function applySpec(value: unknown, raw: string): string {
  if (raw === '') return pyStr(value);
  const m = SPEC.exec(raw);
  if (!m) throw new FormatSpecError(`Invalid format specifier '${raw}'`);
  const spec: Spec = {
    fill: m[1] ?? (m[5] && !m[2] ? '0' : ' '),
    align: m[2] ?? (m[5] ? '=' : undefined),
    sign: m[3] ?? '-',
    alternate: Boolean(m[4]),
    zero: Boolean(m[5]),
    width: m[6] ? Number(m[6]) : 0,
    grouping: m[7] ?? '',
    precision: m[8] !== undefined ? Number(m[8]) : undefined,
    type: m[9] ?? '',
  };
  if (typeof value === 'number' || typeof value === 'boolean') return pad(formatNumber(Number(value), spec), spec, '>');
  if (spec.type !== '' && spec.type !== 's') {
    throw new FormatSpecError(`Unknown format code '${spec.type}' for a value of type ${value === null || value === undefined ? 'None' : typeof value}`);
  }
  const text = pyStr(value);
  return pad(spec.precision !== undefined ? [...text].slice(0, spec.precision).join('') : text, spec, '<');
}

function formatNumber(n: number, spec: Spec): string {
  const negative = n < 0 || Object.is(n, -0);
  const magnitude = Math.abs(n);
  let body: string;
  switch (spec.type) {
    case 'd':
    case 'n':
      if (!Number.isInteger(n)) throw new FormatSpecError(`Unknown format code '${spec.type}' for a float value`);
      body = group(magnitude.toFixed(0), spec.grouping);
      break;
    case 'b':
    case 'o':
    case 'x':
    case 'X': {
      if (!Number.isInteger(n)) throw new FormatSpecError(`Unknown format code '${spec.type}' for a float value`);
      const radix = { b: 2, o: 8, x: 16, X: 16 }[spec.type];
      body = (spec.alternate ? `0${spec.type === 'X' ? 'X' : spec.type}` : '') + magnitude.toString(radix);
      if (spec.type === 'X') body = body.toUpperCase();
      break;
    }
    case 'f':
    case 'F':
      body = fixed(magnitude, spec.precision ?? 6, spec.grouping);
      break;
    case '%':
      body = fixed(magnitude * 100, spec.precision ?? 6, spec.grouping) + '%';
      break;
    case 'e':
    case 'E':
      body = exponent(magnitude, spec.precision ?? 6, spec.type);
      break;
    case 'c':
      body = String.fromCodePoint(magnitude);
      break;
    default: {
      // No type (or g/G): the shortest faithful form, as Python's str() prints it.
      body = spec.precision !== undefined ? String(Number(magnitude.toPrecision(Math.max(spec.precision, 1)))) : pyStr(magnitude);
      if (spec.grouping && Number.isFinite(magnitude)) body = groupLeading(body, spec.grouping);
      if (spec.type === 'G') body = body.toUpperCase();
    }
  }
  const sign = negative ? '-' : spec.sign === '+' ? '+' : spec.sign === ' ' ? ' ' : '';
  return sign + body;
}

function fixed(n: number, precision: number, grouping: string): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : 'inf';
  return groupLeading(n.toFixed(precision), grouping);
}

function exponent(n: number, precision: number, type: string): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'nan' : 'inf';
  const [mantissa, exp] = n.toExponential(precision).split('e') as [string, string];
  const digits = exp.replace(/^[+-]/, '').padStart(2, '0');
  const out = `${mantissa}e${exp.startsWith('-') ? '-' : '+'}${digits}`;
  return type === 'E' ? out.toUpperCase() : out;
}

function groupLeading(text: string, grouping: string): string {
  const [int, ...rest] = text.split('.');
  return [group(int!, grouping), ...rest].join('.');
}

function group(digits: string, grouping: string): string {
  return grouping ? digits.replace(/\B(?=(\d{3})+(?!\d))/g, grouping) : digits;
}

function pad(text: string, spec: Spec, defaultAlign: string): string {
  const length = [...text].length;
  if (length >= spec.width) return text;
  const fill = spec.fill.repeat(spec.width - length);
  switch (spec.align ?? defaultAlign) {
    case '<':
      return text + fill;
    case '^': {
      const left = Math.floor((spec.width - length) / 2);
      return spec.fill.repeat(left) + text + spec.fill.repeat(spec.width - length - left);
    }
    case '=': {
      const sign = /^[+\- ]/.test(text) ? text[0]! : '';
      return sign + fill + text.slice(sign.length);
    }
    default:
      return fill + text;
  }
}
