/**
 * The similar names a renamer is given when a flow's name (or endpoint name) is taken, kept short in memory.
 *
 * Creating the n-th flow called `Name` used to read every `Name (k)` the owner has and hand all n to the renamer:
 * O(n) per create, so a client creating many flows of one name (a UI's "New Flow", an import loop) slowed down
 * linearly. Our renamers (Langflow's rule) choose one above the highest number among the similar names, so one
 * similar name, the highest-numbered, decides their choice as well as all of them. This memo keeps, per owner, kind
 * and prefix, the few names that decide the renamer's choice ("witnesses"), found once by a scan and then kept in
 * step with every name the repo indexes or unindexes. A removed witness drops its entry (the next rename scans
 * again). The repo calls it only inside its write transactions, which run one after the other, so the memo follows
 * the order the store applies the writes in; a failed commit clears it.
 */
import { SIMILAR_SEPARATOR, type NameKind } from '../flow-name-kinds.js';
import type { FlowRenamer } from '../port.js';

export type { NameKind };

/** Entries kept (one per owner, kind and taken name renamed lately). */
const MEMO_MAX = 1000;

interface Entry {
  renamer: FlowRenamer;
  witnesses: string[];
}

type Choose = (similar: string[]) => string;

export class SimilarNames {
  private readonly memo = new Map<string, Entry>();

  /** `scan` reads every name of the owner and kind starting with the prefix (inside the current transaction). */
  constructor(private readonly scan: (owner: string, kind: NameKind, prefix: string) => string[]) {}

  /** The names to give `renamer` for `wanted`: the same choice as all the owner's similar names give. */
  of(owner: string, kind: NameKind, wanted: string, renamer: FlowRenamer): string[] {
    const prefix = wanted + SIMILAR_SEPARATOR[kind];
    const key = memoKey(owner, kind, prefix);
    const entry = this.memo.get(key);
    if (entry && entry.renamer === renamer) return entry.witnesses;
    const witnesses = reduce(this.scan(owner, kind, prefix), chooser(renamer, kind, wanted));
    if (this.memo.size >= MEMO_MAX) this.memo.delete(this.memo.keys().next().value!);
    this.memo.set(key, { renamer, witnesses });
    return witnesses;
  }

  /** A name the owner now holds: it may outnumber the witnesses of every prefix it extends. */
  added(owner: string, kind: NameKind, name: string): void {
    if (this.memo.size === 0) return;
    for (const prefix of prefixesOf(name, kind)) {
      const entry = this.memo.get(memoKey(owner, kind, prefix));
      if (!entry) continue;
      const wanted = prefix.slice(0, -SIMILAR_SEPARATOR[kind].length);
      entry.witnesses = reduce([...entry.witnesses, name], chooser(entry.renamer, kind, wanted));
    }
  }

  /** A name the owner no longer holds: entries it was a witness of are dropped (read again when next needed). */
  removed(owner: string, kind: NameKind, name: string): void {
    if (this.memo.size === 0) return;
    for (const prefix of prefixesOf(name, kind)) {
      const key = memoKey(owner, kind, prefix);
      if (this.memo.get(key)?.witnesses.includes(name)) this.memo.delete(key);
    }
  }

  clear(): void {
    this.memo.clear();
  }
}

const memoKey = (owner: string, kind: NameKind, prefix: string) => `${owner}\u0000${kind}\u0000${prefix}`;

function chooser(renamer: FlowRenamer, kind: NameKind, wanted: string): Choose {
  return kind === 'n' ? (similar) => renamer.name(wanted, similar) : (similar) => renamer.endpointName(wanted, similar);
}

/** Every prefix `<wanted><separator>` that `name` starts with. */
function prefixesOf(name: string, kind: NameKind): string[] {
  const separator = SIMILAR_SEPARATOR[kind];
  const prefixes: string[] = [];
  for (let at = name.indexOf(separator); at !== -1; at = name.indexOf(separator, at + 1)) prefixes.push(name.slice(0, at + separator.length));
  return prefixes;
}

/**
 * The fewest of `names` that give the same choice as all of them: the one name that alone gives it, none when the
 * empty list does, else all of them (a renamer whose choice no single name decides is still answered right).
 */
function reduce(names: string[], choose: Choose): string[] {
  if (names.length <= 1) return names;
  const answer = choose(names);
  const decisive = names.find((name) => choose([name]) === answer);
  if (decisive !== undefined) return [decisive];
  return choose([]) === answer ? [] : names;
}
