/**
 * Path Selection's paths: dot paths with `[n]` indexes, as the editor offers them (`.user.addresses[0].city`),
 * plus quoted keys (`."a key"`, `["a.key"]`) and negative indexes. They are walked directly, so a missing key is
 * an error that lists the keys that do exist; a path that is not of this form is a jq program (Langflow runs
 * every path through jq) and the caller hands it to the jq engine.
 */
import { ComponentError } from '../component.error.js';

export type PathStep = { key: string } | { index: number };

const SEGMENT = /^(?:\.([^.[\]"\s|(),]+)|\."((?:[^"\\]|\\.)*)"|\.?\[\s*(-?\d+)\s*\]|\.?\[\s*"((?:[^"\\]|\\.)*)"\s*\])/;

/** The steps of a dot path, or undefined when the text is not one. */
export function parsePath(path: string): PathStep[] | undefined {
  let rest = path.trim();
  if (rest === '.') return [];
  if (!rest.startsWith('.')) return undefined;
  const steps: PathStep[] = [];
  while (rest !== '') {
    const m = SEGMENT.exec(rest);
    if (!m) return undefined;
    if (m[1] !== undefined) steps.push({ key: m[1] });
    else if (m[3] !== undefined) steps.push({ index: Number(m[3]) });
    else {
      const key = quoted(m[2] ?? m[4]);
      if (key === undefined) return undefined;
      steps.push({ key });
    }
    rest = rest.slice(m[0].length);
  }
  return steps;
}

/** A quoted key's text (JSON escapes), or undefined when the escapes are not valid. */
function quoted(body: string): string | undefined {
  try {
    return JSON.parse(`"${body}"`) as string;
  } catch {
    return undefined;
  }
}

export function walkPath(value: unknown, steps: readonly PathStep[], path: string): unknown {
  let current = value;
  let at = '';
  for (const step of steps) {
    if ('index' in step) {
      if (!Array.isArray(current)) throw new ComponentError(`Path Selection: ${describe(at)} is ${kindOf(current)}, not a list, so [${step.index}] does not apply (selected_key "${path}")`);
      const index = step.index < 0 ? current.length + step.index : step.index;
      if (index < 0 || index >= current.length) throw new ComponentError(`Path Selection: index [${step.index}] is out of range at ${describe(at)}, which has ${current.length} item(s) (selected_key "${path}")`);
      current = current[index];
      at += `[${step.index}]`;
    } else {
      if (typeof current !== 'object' || current === null || Array.isArray(current)) {
        throw new ComponentError(`Path Selection: ${describe(at)} is ${kindOf(current)}, so it has no key "${step.key}" (selected_key "${path}")`);
      }
      if (!(step.key in current)) {
        throw new ComponentError(`Path Selection: key "${step.key}" not found at ${describe(at)} (selected_key "${path}"). Available keys: ${JSON.stringify(Object.keys(current))}`);
      }
      current = (current as Record<string, unknown>)[step.key];
      at += /^[A-Za-z_]\w*$/.test(step.key) ? `.${step.key}` : `.${JSON.stringify(step.key)}`;
    }
  }
  return current;
}

const describe = (at: string) => (at === '' ? 'the top level' : `"${at}"`);

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
