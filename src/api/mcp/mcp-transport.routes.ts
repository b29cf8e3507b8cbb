/**
 * The MCP transports (spec 4.7): the global server (the caller's own flows) and one per project (its enabled
 * flows), each over Streamable HTTP (stateful or stateless) and legacy SSE. HEAD answers 200 as a health check.
 */
import { z } from 'zod';
import { McpKeyQuery, McpMessageQuery, McpProjectParams } from '../../../protocol/mcp.schema.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type AuthMode, type HttpMethod, type Route, type RouteRequest } from '../../edge/route.js';
import type { McpScope } from '../../services/mcp/mcp-scope.js';
import type { Services } from '../../services/services.js';
import { isVariableHeader } from '../run/global-vars.js';
import { projectAccess } from './project-access.js';
import { SseBridge } from './sse-bridge.js';
import { StreamableBridge } from './streamable-bridge.js';

const GLOBAL = '/api/v1/mcp';
const PROJECT = '/api/v1/mcp/project/:project_id';

type Request = RouteRequest<{ project_id: string } | undefined, z.infer<typeof McpMessageQuery>, Buffer>;

export function mcpTransportRoutes(services: Services): Route[] {
  const streamable = new StreamableBridge(services);
  const sse = new SseBridge(services);

  /**
   * The global server is the caller's; a project's server is reached by its auth settings. A visitor of a public
   * project's server runs the owner's flows as they are: its request-variable headers, which would replace the
   * owner's variables (keys, URLs, paths), are dropped.
   */
  const accessOf = async (project: boolean, request: Request): Promise<{ scope: McpScope; headers: Readonly<Record<string, string>> }> => {
    if (!project) return { scope: { kind: 'user', ownerId: request.principal!.userId }, headers: request.headers };
    const { scope, visitor } = await projectAccess(services, request.params!.project_id, request.headers, request.query['x-api-key']);
    return { scope, headers: visitor ? withoutVariables(request.headers) : request.headers };
  };

  const base = (project: boolean) => (project ? PROJECT : GLOBAL);
  const auth = (project: boolean): AuthMode => (project ? 'none' : 'user');
  const common = (project: boolean) => ({ tags: ['MCP'], auth: auth(project), params: project ? McpProjectParams : undefined, query: McpMessageQuery });
  const pathOf = (project: boolean, request: Request, suffix: string) => (project ? `${GLOBAL}/project/${request.params!.project_id}${suffix}` : `${GLOBAL}${suffix}`);

  const health = (project: boolean, path: string): Route =>
    defineRoute({ method: 'HEAD', path: `${base(project)}${path}`, summary: 'MCP server health', ...common(project), handler: () => Reply.empty(200) });

  const streamableRoute = (project: boolean, method: HttpMethod): Route =>
    defineRoute({
      method,
      path: `${base(project)}/streamable`,
      summary: `MCP Streamable HTTP (${method})${project ? ' of a project' : ''}`,
      ...common(project),
      query: McpKeyQuery,
      bodyKind: 'raw',
      async handler(request) {
        const req = request as unknown as Request;
        const { scope, headers } = await accessOf(project, req);
        return streamable.handle(method, { body: req.body, headers }, scope, pathOf(project, req, '/streamable'));
      },
    });

  const sseRoutes = (project: boolean): Route[] => [
    health(project, '/sse'),
    defineRoute({
      method: 'GET',
      path: `${base(project)}/sse`,
      summary: `MCP legacy SSE stream${project ? ' of a project' : ''}`,
      ...common(project),
      async handler(request) {
        const req = request as unknown as Request;
        return sse.open((await accessOf(project, req)).scope, `${pathOf(project, req, '')}/`);
      },
    }),
    defineRoute({
      method: 'POST',
      path: base(project),
      summary: `MCP legacy SSE messages${project ? ' of a project' : ''}`,
      ...common(project),
      bodyKind: 'raw',
      async handler(request) {
        const req = request as unknown as Request;
        const { scope, headers } = await accessOf(project, req);
        return sse.post(scope, req.query.session_id, req.body, headers);
      },
    }),
  ];

  return [false, true].flatMap((project) => [
    health(project, '/streamable'),
    ...(['GET', 'POST', 'DELETE'] as const).map((method) => streamableRoute(project, method)),
    ...sseRoutes(project),
  ]);
}

function withoutVariables(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !isVariableHeader(name)));
}
