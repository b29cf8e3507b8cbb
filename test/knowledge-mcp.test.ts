/**
 * Knowledge bases through a project's MCP server, with the MCP SDK's client over the real edge: a flow holding a
 * Knowledge node retrieves from its owner's knowledge base; another user's flow naming a knowledge base of the same
 * name finds none of the owner's ("not found" while they have none, their own once they make one).
 */
import t from 'tap';
import { startEmbeddingServer, type EmbeddingServer } from '../bench/support/embedding-server.js';
import { createUserWithKey } from './support/auth.js';
import { createFlow } from './support/flow-helpers.js';
import { createKb, ingestAndWait, KEY_HEADER } from './support/knowledge.js';
import { edge, flow, node } from './support/langflow-json.js';
import { connectMcp, type McpTransportKind } from './support/mcp-client.js';
import { startTestServer, type TestServer } from './support/server.js';

let server: TestServer;
let embedder: EmbeddingServer;

t.before(async () => {
  embedder = await startEmbeddingServer({ dims: 64 });
  process.env.OPENAI_BASE_URL = embedder.baseURL;
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  await server.close();
  await embedder.close();
});

const KB = 'mcp-facts';
const OWNER_FACTS = ['The lighthouse keeper polishes the lens every night.', 'Glaciers carve valleys over thousands of years.'];
const OTHER_FACT = 'The lighthouse in the other story was painted red and white.';

/** Chat Input -> Knowledge (Retrieve, top 1) -> Parser -> Chat Output, enabled as the MCP tool `ask_facts`. */
function knowledgeFlow(folderId: string) {
  return flow(
    'Ask facts',
    [
      node('ChatInput-in001', 'ChatInput'),
      node('Knowledge-kb001', 'Knowledge', { knowledge_base: KB, mode: 'Retrieve', top_k: 1 }),
      node('ParserComponent-p001', 'parser', { mode: 'Parser', pattern: '{content}', sep: '\n' }),
      node('ChatOutput-out01', 'ChatOutput'),
    ],
    [edge('ChatInput-in001', 'message', 'Knowledge-kb001', 'search_query'), edge('Knowledge-kb001', 'retrieve_data', 'ParserComponent-p001', 'input_data'), edge('ParserComponent-p001', 'parsed_text', 'ChatOutput-out01', 'input_value')],
    { folder_id: folderId, mcp_enabled: true, action_name: 'ask_facts' },
  );
}

/** A project of the key's user holding the Knowledge flow; its MCP server's base path. */
async function projectWithFlow(name: string, key: string): Promise<string> {
  const res = await server.request('/api/v1/projects/', { method: 'POST', json: { name }, key });
  if (res.status !== 201 && res.status !== 200) throw new Error(`project: ${res.status} ${await res.text()}`);
  const project = await res.json();
  await createFlow(server, knowledgeFlow(project.id), key);
  return `/api/v1/mcp/project/${project.id}`;
}

/** Calls the tool through the project's MCP server with the SDK client; the texts it answered. */
async function ask(kind: McpTransportKind, base: string, key: string, question: string): Promise<string> {
  const mcp = await connectMcp(server, kind, { base, key, headers: KEY_HEADER });
  try {
    const tools = (await mcp.client.listTools()).tools.map((tool) => tool.name);
    if (!tools.includes('ask_facts')) throw new Error(`no ask_facts tool in ${tools.join()}`);
    const called = await mcp.client.callTool({ name: 'ask_facts', arguments: { input_value: question } });
    return (called.content as { text: string }[]).map((item) => item.text).join('\n');
  } finally {
    await mcp.close();
  }
}

t.test("a Knowledge flow called through its project's MCP server reads its owner's knowledge base, never another's", async (t) => {
  t.equal((await createKb(server, KB)).status, 201);
  const ingested = await ingestAndWait(server, KB, { 'facts.txt': OWNER_FACTS.join('\n\n') }, { chunk_size: '80', chunk_overlap: '0' });
  t.equal(ingested.status, 'completed');
  const ownerBase = await projectWithFlow('Knowledge over MCP', server.apiKey);
  const other = await createUserWithKey(server, 'kb-mcp-other');
  const otherBase = await projectWithFlow('Knowledge over MCP', other.apiKey);

  for (const kind of ['streamable', 'sse'] as const) {
    t.equal(await ask(kind, ownerBase, server.apiKey, 'what do glaciers carve'), OWNER_FACTS[1], `${kind}: the owner's flow finds the owner's chunk`);
    const refused = await ask(kind, otherBase, other.apiKey, 'what do glaciers carve');
    t.match(refused, /^Error Executing the Ask facts tool\. Error: .*Knowledge base 'mcp-facts' not found/, `${kind}: the other user's flow finds no knowledge base of that name`);
    t.notMatch(refused, /Glaciers|lighthouse/i, `${kind}: and nothing of the owner's text`);
  }
  await t.rejects(connectMcp(server, 'streamable', { base: ownerBase, key: other.apiKey }), /404|Project not found/, "the owner's MCP server is not theirs to call");

  t.equal((await createKb(server, KB, other.apiKey)).status, 201, 'the same name is free for the other user');
  t.equal((await ingestAndWait(server, KB, { 'theirs.txt': OTHER_FACT }, { chunk_size: '80', chunk_overlap: '0' }, other.apiKey)).status, 'completed');
  t.equal(await ask('streamable', otherBase, other.apiKey, 'the lighthouse lens'), OTHER_FACT, 'their flow now reads their own knowledge base');
  t.equal(await ask('streamable', ownerBase, server.apiKey, 'the lighthouse lens'), OWNER_FACTS[0], "and the owner's still reads the owner's");
});
