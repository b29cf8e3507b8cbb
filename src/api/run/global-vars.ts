/**
 * Request-level global variables from `X-FLOWSVC-GLOBAL-VAR-<NAME>` (and Langflow's prefix): names upper-cased.
 * Hyphens in the name also count as underscores: the uWS build we ship never answers a request whose header name
 * contains `_`, so `X-FLOWSVC-GLOBAL-VAR-OPENAI-API-KEY` is how a client passes `OPENAI_API_KEY`.
 */

const PREFIXES = ['x-flowsvc-global-var-', 'x-langflow-global-var-'];

/** True for a header that sets a request variable (the name lower-cased, as the edge gives it). */
export function isVariableHeader(name: string): boolean {
  return PREFIXES.some((prefix) => name.startsWith(prefix) && name.length > prefix.length);
}

export function headerVariables(headers: Readonly<Record<string, string>>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const prefix = PREFIXES.find((p) => name.startsWith(p));
    if (!prefix || name.length === prefix.length) continue;
    const variable = name.slice(prefix.length).toUpperCase();
    variables[variable] = value;
    variables[variable.replaceAll('-', '_')] ??= value;
  }
  return variables;
}
