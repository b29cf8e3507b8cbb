/** Just enough Accept-header negotiation for /docs: does the client rank JSON above HTML? */

interface MediaRange {
  type: string;
  subtype: string;
  q: number;
}

function parseAccept(header: string): MediaRange[] {
  const ranges: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const [type, subtype] = range.split('/');
    if (!type || !subtype) continue;
    let q = 1;
    for (const param of params) {
      if (param.startsWith('q=')) q = Number(param.slice(2));
    }
    ranges.push({ type, subtype, q: Number.isFinite(q) ? q : 0 });
  }
  return ranges;
}

interface Preference {
  q: number;
  /** 2: named exactly, 1: matched by `type/*`, 0: matched by the full wildcard, -1: not acceptable. */
  specificity: number;
}

/** How `ranges` rate `mediaType`: the most specific matching range decides its quality (RFC 9110 12.5.1). */
function preferenceFor(ranges: MediaRange[], mediaType: string): Preference {
  const [type, subtype] = mediaType.split('/');
  let best: Preference = { q: 0, specificity: -1 };
  for (const range of ranges) {
    const specificity = range.type === type && range.subtype === subtype ? 2 : range.type === type && range.subtype === '*' ? 1 : range.type === '*' ? 0 : -1;
    if (specificity > best.specificity) best = { q: range.q, specificity };
  }
  return best;
}

/**
 * True when the client ranks JSON above HTML. Equal quality goes to the type the client named rather than the
 * one it reached through a wildcard: axios and generated clients (JSON named, anything else by wildcard) get
 * JSON, while browsers, a bare wildcard, and clients without Accept get the page.
 */
export function prefersJson(accept: string | undefined): boolean {
  if (!accept) return false;
  const ranges = parseAccept(accept);
  const json = preferenceFor(ranges, 'application/json');
  const html = preferenceFor(ranges, 'text/html');
  if (json.q === 0) return false;
  return json.q > html.q || (json.q === html.q && json.specificity > html.specificity);
}
