/** Matches an upgrade request's path against the socket routes (few, so a list scan). */
import { safeDecode } from './router.js';
import type { SocketRoute } from './socket-route.js';

export interface SocketMatch {
  route: SocketRoute;
  params: Record<string, string>;
}

const segmentsOf = (path: string) => path.split('/').filter((s) => s.length > 0);

export function matchSocketRoute(routes: readonly SocketRoute[], path: string): SocketMatch | undefined {
  const segments = segmentsOf(path);
  for (const route of routes) {
    const pattern = segmentsOf(route.path);
    if (pattern.length !== segments.length) continue;
    const params: Record<string, string> = {};
    const matches = pattern.every((part, i) => {
      if (!part.startsWith(':')) return part === segments[i];
      params[part.slice(1)] = safeDecode(segments[i]);
      return true;
    });
    if (matches) return { route, params };
  }
  return undefined;
}

/** The query string's names and first values (URLSearchParams decodes `+` and percent escapes). */
export function queryOf(raw: string): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(raw)) query[name] ??= value;
  return query;
}
