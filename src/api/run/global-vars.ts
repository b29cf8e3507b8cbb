/** Request-level global variables from `X-FLOWSVC-GLOBAL-VAR-<NAME>` (and Langflow's prefix): names upper-cased. */

const PREFIXES = ['x-flowsvc-global-var-', 'x-langflow-global-var-'];

export function headerVariables(headers: Readonly<Record<string, string>>): Record<string, string> {
  const variables: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const prefix = PREFIXES.find((p) => name.startsWith(p));
    if (prefix && name.length > prefix.length) variables[name.slice(prefix.length).toUpperCase()] = value;
  }
  return variables;
}
