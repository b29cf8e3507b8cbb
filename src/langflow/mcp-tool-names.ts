/**
 * Langflow's MCP tool names: a flow's action name (or name) sanitised to a lowercase identifier, cut to 30
 * characters and made unique with `_1`, `_2`. Clients match tools by these names, so they follow Langflow exactly.
 */

export const MAX_MCP_TOOL_NAME_LENGTH = 30;
export const MAX_MCP_SERVER_NAME_LENGTH = 30;
const SANITIZE_MAX_LENGTH = 46;

const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u{FE0F}\u{200D}]/gu;
const COMBINING_MARKS = /\p{M}/gu;

/** Emoji and diacritics go, other punctuation too; spaces and hyphens become `_`; a leading digit gets `_`. */
export function sanitizeMcpName(name: string, maxLength = SANITIZE_MAX_LENGTH): string {
  let out = name.replace(EMOJI, '').normalize('NFD').replace(COMBINING_MARKS, '');
  out = out.replace(/[^\p{L}\p{N}_\s-]/gu, '');
  out = out.replace(/[\s-]+/g, '_').replace(/_+/g, '_').replace(/^_+|_+$/g, '');
  if (/^\d/.test(out)) out = `_${out}`;
  out = out.toLowerCase();
  if (out.length > maxLength) out = out.slice(0, maxLength).replace(/_+$/, '');
  return out || 'unnamed';
}

/** `base` if free, else `base_1`, `base_2`, ... with the base cut so the whole stays within `maxLength`. */
export function uniqueMcpName(base: string, taken: ReadonlySet<string>, maxLength = MAX_MCP_TOOL_NAME_LENGTH): string {
  const cut = base.slice(0, maxLength);
  if (!taken.has(cut)) return cut;
  for (let i = 1; ; i++) {
    const suffix = `_${i}`;
    const candidate = `${base.slice(0, maxLength - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
}
