/** The data shaping of Langflow's Apify component: picked dataset fields, flattened items, the tool's input text. */

const MAX_DESCRIPTION_LEN = 250;

/** `'text, metadata.title'` -> ['text', 'metadata.title'] (quotes and backticks dropped, as Langflow does). */
export function parseDatasetFields(fields: string): string[] {
  return fields
    .replace(/['"`]/g, '')
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
}

/** Only the named fields, dots in their names turned to underscores; a missing one is null. */
export function pickFields(item: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field.replaceAll('.', '_'), nestedValue(item, field)]));
}

function nestedValue(item: Record<string, unknown>, path: string): unknown {
  let value: unknown = item;
  for (const key of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !(key in value)) return null;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** {a: {b: 1}} -> {a_b: 1}. */
export function flatten(item: Record<string, unknown>): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(item)) {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
      for (const [sub, subValue] of Object.entries(flatten(value as Record<string, unknown>))) flat[`${key}_${sub}`] = subValue;
    } else flat[key] = value;
  }
  return flat;
}

/** The tool argument's description: the input schema's properties (descriptions cut at 250) and its required fields. */
export function describeInput(schema: Record<string, unknown>): string {
  const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const trimmed: Record<string, Record<string, unknown>> = {};
  for (const [name, meta] of Object.entries(properties)) {
    const out: Record<string, unknown> = {};
    const description = typeof meta.description === 'string' ? meta.description : '';
    if (description) out.description = description.length > MAX_DESCRIPTION_LEN ? `${description.slice(0, MAX_DESCRIPTION_LEN)}...` : description;
    for (const key of ['type', 'default', 'prefill', 'enum']) if (meta[key]) out[key] = meta[key];
    trimmed[name] = out;
  }
  const text = `JSON encoded as a string with input schema (STRICTLY FOLLOW JSON FORMAT AND SCHEMA):\n\n${JSON.stringify({ run_input: trimmed })}`;
  return required.length > 0 ? `${text}\n\nRequired fields:\n${required.join('\n')}` : text;
}
