/** Path matching for the route table: a segment trie, so lookups cost one map hit per segment. */
import type { HttpMethod, Route } from './route.js';

interface Node {
  statics: Map<string, Node>;
  param?: { name: string; node: Node };
  routes: Map<HttpMethod, Route>;
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
    for (const segment of segmentsOf(route.path)) {
      if (segment.startsWith(':')) {
        const name = segment.slice(1);
        if (node.param && node.param.name !== name) {
          throw new Error(`route ${route.method} ${route.path}: parameter :${name} clashes with :${node.param.name}`);
        }
        node.param ??= { name, node: newNode() };
        node = node.param.node;
      } else {
        let next = node.statics.get(segment);
        if (!next) node.statics.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.routes.has(route.method)) throw new Error(`duplicate route ${route.method} ${route.path}`);
    node.routes.set(route.method, route);
    this.routes.push(route);
  }

  match(method: HttpMethod, path: string): Match {
    const params: Record<string, string> = {};
    const node = this.walk(this.root, segmentsOf(path), 0, params);
    if (!node || node.routes.size === 0) return { kind: 'not-found' };
    const route = node.routes.get(method) ?? (method === 'HEAD' ? node.routes.get('GET') : undefined);
    if (route) return { kind: 'found', route, params };
    const allowed = [...node.routes.keys()];
    // GET routes answer HEAD too (above), so the Allow header says so.
    if (node.routes.has('GET') && !node.routes.has('HEAD')) allowed.push('HEAD');
    return { kind: 'method-not-allowed', allowed };
  }

  /** Static segments win over parameters; backtracks so `/flows/upload` and `/flows/:id` coexist. */
  private walk(node: Node, segments: string[], index: number, params: Record<string, string>): Node | undefined {
    if (index === segments.length) return node;
    const segment = segments[index];
    const staticNext = node.statics.get(segment);
    if (staticNext) {
      const found = this.walk(staticNext, segments, index + 1, params);
      if (found && found.routes.size > 0) return found;
    }
    if (node.param) {
      const found = this.walk(node.param.node, segments, index + 1, params);
      if (found && found.routes.size > 0) {
        params[node.param.name] = safeDecode(segment);
        return found;
      }
    }
    return undefined;
  }
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
