/** The model builds' setup: the stand-in OpenAI server, a test server pointed at it, and a streaming chat flow stored. */
import { createFlow } from './flow-helpers.js';
import { startModelServer, type ModelServer } from './model-server.js';
import { chatModelFlow, openaiModelTemplate } from './model-flows.js';
import { startTestServer, type TestServer } from './server.js';

export interface BuildModelStack {
  model: ModelServer;
  server: TestServer;
  flowId: string;
  close(): Promise<void>;
}

export async function startBuildModelStack(): Promise<BuildModelStack> {
  const model = await startModelServer();
  process.env.OPENAI_BASE_URL = model.baseURL;
  const server = await startTestServer();
  const flowId = (await createFlow(server, chatModelFlow('Build model', 'LanguageModelComponent', openaiModelTemplate({ stream: true })))).id;
  return {
    model,
    server,
    flowId,
    async close() {
      await server.close();
      await model.close();
    },
  };
}
