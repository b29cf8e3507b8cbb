/** CORS for browser clients: any origin, with credentials (Langflow's editor and playgrounds call cross-origin). */

/** Shared by every reply without an Origin (callers only read it). */
const ANY_ORIGIN: readonly [string, string][] = [['access-control-allow-origin', '*']];

export function corsHeaders(origin: string | undefined): readonly [string, string][] {
  if (!origin) return ANY_ORIGIN;
  return [
    ['access-control-allow-origin', origin],
    ['access-control-allow-credentials', 'true'],
    ['vary', 'Origin'],
  ];
}

export function preflightHeaders(origin: string | undefined, requestHeaders: string | undefined): [string, string][] {
  return [
    ...corsHeaders(origin),
    ['access-control-allow-methods', 'GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS'],
    ['access-control-allow-headers', requestHeaders || '*'],
    ['access-control-max-age', '600'],
  ];
}
