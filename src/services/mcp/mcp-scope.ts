/**
 * Whose tools an MCP server offers: the global server offers a user's own flows, a project's server the flows its
 * owner enabled there. `ownerId` is whose flows they are and who runs them.
 */
export type McpScope = { kind: 'user'; ownerId: string } | { kind: 'project'; ownerId: string; projectId: string };

/** One key per server a session may belong to: a session is only ever reached again through the same scope. */
export function scopeKey(scope: McpScope): string {
  return scope.kind === 'user' ? `user:${scope.ownerId}` : `project:${scope.projectId}`;
}

/** Langflow's server names: one global server, one per project. */
export function serverName(scope: McpScope): string {
  return scope.kind === 'user' ? 'langflow-mcp-server' : `langflow-mcp-project-${scope.projectId}`;
}
