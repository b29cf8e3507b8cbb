/**
 * The two servers the service-tool scenario needs, kept small (bench code is compiled on its own, without test/):
 * an OpenAI chat-completions endpoint whose agent calls the one tool it is offered once and then answers, and
 * Tavily's `/search` answering a fixed search at once.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

export interface LocalServer {
  url: string;
  requests: number;
  close(): Promise<void>;
}

const TOOL_ARGS: Record<string, Record<string, unknown>> = { fetch_content_dataframe: { query: 'flows' }, evaluate_expression: { expression: '6*7' } };

function chatReply(body: any) {
  const tool = body?.tools?.[0]?.function?.name as string | undefined;
  const answered = body?.messages?.some((m: { role: string }) => m.role === 'tool');
  const message = tool && !answered
    ? { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool, arguments: JSON.stringify(TOOL_ARGS[tool] ?? {}) } }] }
    : { role: 'assistant', content: 'done' };
  const finish = message.content === null ? 'tool_calls' : 'stop';
  return { id: 'chatcmpl-bench', object: 'chat.completion', created: 0, model: body?.model ?? 'gpt-4o-mini', choices: [{ index: 0, message, finish_reason: finish }], usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } };
}

export const TAVILY_ANSWER = {
  query: 'flows',
  answer: 'Flows are graphs of components.',
  images: ['https://images.example/flow.png'],
  results: [
    { title: 'What is a flow', url: 'https://docs.example/flows', content: 'A flow connects components.', score: 0.91, raw_content: null },
    { title: 'Running flows', url: 'https://docs.example/run', content: 'Run a flow through the API.', score: 0.82, raw_content: null },
  ],
};

async function serve(answer: (path: string, body: any) => unknown): Promise<LocalServer> {
  const local: LocalServer = { url: '', requests: 0, close: () => new Promise((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
  const server: Server = createServer(async (req, res) => {
    const raw = await text(req);
    local.requests++;
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer(req.url ?? '/', raw ? JSON.parse(raw) : null)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return local;
}

export const startAgentModel = () => serve((_path, body) => chatReply(body));
export const startTavily = () => serve(() => TAVILY_ANSWER);
