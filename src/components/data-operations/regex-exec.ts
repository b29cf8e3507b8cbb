/**
 * Matching with user patterns (already translated from Python): replace-all as `re.sub` and find-all as
 * `re.findall`. Backtracking regexes can take exponential time, so these run only inside the sandbox worker,
 * where a deadline can stop them (see regex-guard.ts).
 */
import type { JsRegex } from './python-regex.js';
import { expandReplacement, type ReplacementPart } from './python-replacement.js';

/** One `re.findall` item: the match, the single group, or every group (Python's tuple). */
export type FoundItem = string | string[];

export function replaceAllMatches(regex: JsRegex, text: string, parts: readonly ReplacementPart[]): string {
  const pattern = new RegExp(regex.source, `${regex.flags}g`);
  let out = '';
  let last = 0;
  for (const match of text.matchAll(pattern)) {
    out += text.slice(last, match.index) + expandReplacement(parts, match, match.groups);
    last = match.index! + match[0].length;
  }
  return out + text.slice(last);
}

/** `max` > 0 keeps the first `max` items (Langflow slices the full list; stopping early gives the same items). */
export function findAllMatches(regex: JsRegex, text: string, max: number): FoundItem[] {
  const pattern = new RegExp(regex.source, `${regex.flags}g`);
  const groups = groupCount(regex);
  const found: FoundItem[] = [];
  for (const match of text.matchAll(pattern)) {
    if (groups === 0) found.push(match[0]);
    else if (groups === 1) found.push(match[1] ?? '');
    else found.push(Array.from({ length: groups }, (_, k) => match[k + 1] ?? ''));
    if (max > 0 && found.length >= max) break;
  }
  return found;
}

/** Capturing groups of a pattern: an alternative that matches the empty string reports them all. */
export function groupCount(regex: JsRegex): number {
  return new RegExp(`${regex.source}|`, regex.flags).exec('')!.length - 1;
}

export function groupNames(regex: JsRegex): string[] {
  return Object.keys(new RegExp(`${regex.source}|`, regex.flags).exec('')!.groups ?? {});
}
