/**
 * The failure cases every entry point is driven through (test/run-failures-*.test.ts): a failing component, a
 * missing variable, a timeout, a stop and a client that leaves. One flow (Chat Input -> Language Model -> Chat
 * Output, its key from the variable OPENAIKEY) on two services sharing one model stand-in: one with a long run
 * timeout, one whose runs time out after a second.
 */
import type { Test } from 'tap';
import { chatModelFlow, HEADER_KEY, openaiModelTemplate } from './model-flows.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { createFlow } from './flow-helpers.js';
import { edge, flow, node } from './langflow-json.js';
import { startTestServer, type TestServer } from './server.js';

export type FailureCase = 'component' | 'missing_variable' | 'timeout' | 'stop' | 'client_gone';

export const KEY_HEADER = { [`X-FLOWSVC-GLOBAL-VAR-${HEADER_KEY}`]: 'sk-test' };
export const KEY_GLOBALS = { [HEADER_KEY]: 'sk-test' };
/** The model node's id and name, as failures name it. */
export const MODEL_NODE = { id: 'LanguageModelComponent-model1', name: 'Language Model' };
export const TIMEOUT_SECONDS = 1;

export interface FailureStack {
  model: ModelServer;
  /** Runs time out after 5 minutes here. */
  server: TestServer;
  /** Runs time out after TIMEOUT_SECONDS here. */
  quick: TestServer;
  /** The model flow's id on each server. */
  flowOn(server: TestServer): string;
  /** Webhook -> Language Model -> Chat Output on each server: a webhook's payload is what the model gets. */
  webhookFlowOn(server: TestServer): string;
}

export async function failureStack(t: Test): Promise<FailureStack> {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false' });
  const quick = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', JOB_TIMEOUT_SECONDS: String(TIMEOUT_SECONDS) });
  t.teardown(async () => {
    await server.close();
    await quick.close();
    await model.close();
  });
  const flows = new Map<TestServer, string>();
  const hooks = new Map<TestServer, string>();
  for (const s of [server, quick]) {
    flows.set(s, (await createFlow(s, chatModelFlow('Failing', 'LanguageModelComponent', openaiModelTemplate()))).id);
    hooks.set(s, (await createFlow(s, webhookModelFlow())).id);
  }
  return { model, server, quick, flowOn: (s) => flows.get(s)!, webhookFlowOn: (s) => hooks.get(s)! };
}

function webhookModelFlow() {
  const model = MODEL_NODE.id;
  return flow(
    'Failing hook',
    [node('Webhook-hook1', 'Webhook', {}, 'Webhook'), node(model, 'LanguageModelComponent', openaiModelTemplate(), MODEL_NODE.name), node('ChatOutput-out01', 'ChatOutput', {}, 'Chat Output')],
    [edge('Webhook-hook1', 'output_data', model, 'input_value'), edge(model, 'text_output', 'ChatOutput-out01', 'input_value')],
  );
}

/** The service a case runs on. */
export const serverFor = (stack: FailureStack, c: FailureCase) => (c === 'timeout' ? stack.quick : stack.server);

/** Whether the case's request carries the key variable. */
export const withKey = (c: FailureCase) => c !== 'missing_variable';

/**
 * Queues what the model does for a case: fail at once (a 400, which is not retried), or answer so slowly that the
 * run can be stopped, left or timed out while it waits. A missing variable never reaches the model.
 */
export function arrange(model: ModelServer, c: FailureCase): void {
  if (c === 'component') model.script({ error: { status: 400, message: 'the model exploded' } });
  else if (c !== 'missing_variable') model.script({ tokens: Array.from({ length: 400 }, (_, i) => ` t${i}`), tokenDelayMs: 25 });
}

/** What a failure's text says, by case (v1 wording; v2 and responses say the same of the component). */
export const SAYS: Record<Exclude<FailureCase, 'stop' | 'client_gone'>, RegExp> = {
  component: /Language Model \(LanguageModelComponent-model1\).*the model exploded/,
  missing_variable: /Variable OPENAIKEY not found/,
  timeout: new RegExp(`exceeded ${TIMEOUT_SECONDS} seconds`),
};

/** Langflow's v1 stream: JSON objects separated by blank lines. */
export async function readFrames(res: Response, onFrame?: (frame: { event: string; data: any }) => void): Promise<{ event: string; data: any }[]> {
  const frames: { event: string; data: any }[] = [];
  let buffer = '';
  for await (const chunk of res.body!.pipeThrough(new TextDecoderStream())) {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) !== -1) {
      const frame = JSON.parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      frames.push(frame);
      onFrame?.(frame);
    }
  }
  return frames;
}
