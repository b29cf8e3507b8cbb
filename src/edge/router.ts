/**
 * Path matching for the route table: a segment trie, so lookups cost one map hit per segment. Parameter
 * positions are shared in the trie; their names belong to each route (`/session/:old_session_id` for PATCH and
 * `/session/:session_id` for DELETE live on the same node).
 */
import type { HttpMethod, Route } from './route.js';

interface Bound {
  route: Route;
  /** Names of the path's parameters, in order. */
  names: string[];
}

interface Node {
  statics: Map<string, Node>;
  param?: Node;
  routes: Map<HttpMethod, Bound>;
}

const newNode = (): Node => ({ statics: new Map(), routes: new Map() });

export type Match =
  | { kind: 'found'; route: Route; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: HttpMethod[] }
  | { kind: 'not-found' };

function segmentsOf(path: string): string[] {
  return path.split('/').filter((s) => s.length > 0);
}

export class Router {
  private readonly root = newNode();
  readonly routes: Route[] = [];

  add(route: Route): void {
    let node = this.root;
    const names: string[] = [];
    for (const segment of segmentsOf(route.path)) {
      if (segment.startsWith(':')) {
        names.push(segment.slice(1));
        node = node.param ??= newNode();
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, { route, names });
    this.routes.push(route);
  }

  match(method: HttpMethod, path: string): Match {
    const values: string[] = [];
    const node = this.walk(this.root, segmentsOf(path), 0, values);
    if (!node) return { kind: 'not-found' };
    const bound = node.routes.get(method) ?? (method === 'HEAD' ? node.routes.get('GET') : undefined);
    if (bound) {
      const params: Record<string, string> = {};
      bound.names.forEach((name, i) => (params[name] = values[i]));
      return { kind: 'found', route: bound.route, params };
    }
    const allowed = [...node.routes.keys()];
    // GET routes answer HEAD too (above), so the Allow header says so.
    if (node.routes.has('GET') && !node.routes.has('HEAD')) allowed.push('HEAD');
    return { kind: 'method-not-allowed', allowed };
  }

  /** Static segments win over parameters; backtracks so `/flows/upload` and `/flows/:id` coexist. */
  private walk(node: Node, segments: string[], index: number, values: string[]): Node | undefined {
    if (index === segments.length) return node.routes.size > 0 ? node : undefined;
    const segment = segments[index];
    const staticNext = node.statics.get(segment);
    if (staticNext) {
      const found = this.walk(staticNext, segments, index + 1, values);
      if (found) return found;
    }
    if (node.param) {
      values.push(safeDecode(segment));
      const found = this.walk(node.param, segments, index + 1, values);
      if (found) return found;
      values.pop();
    }
    return undefined;
  }
}

export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
