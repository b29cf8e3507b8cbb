/** The two per-owner unique names of a flow, and how their numbered variants extend a taken one (every store). */

/** `n`: the flow's name; `e`: its endpoint name. */
export type NameKind = 'n' | 'e';

/** What follows a taken name in its numbered variants: `Name (2)`, `ep-2`. */
export const SIMILAR_SEPARATOR: Record<NameKind, string> = { n: ' (', e: '-' };
