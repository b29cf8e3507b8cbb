/**
 * The current starters that call a hosted service (Needle, AssemblyAI, ...), run unchanged as a new user meets
 * them: the service's FLOWSVC_<SERVICE>_BASE_URL points at its local stand-in, its key and OpenAI's are in the
 * environment, and the model is the local model server. Only what the user must feed (an audio file) is tweaked.
 */
import { LangflowClient } from '@datastax/langflow-client';
import t from 'tap';
import { ASSEMBLYAI_KEY, startAssemblyStandIn, type AssemblyStandIn } from '../test/support/assemblyai-stand-in.js';
import { starterFlow, upload } from '../test/support/flow-helpers.js';
import { startModelServer, type ModelServer, type RecordedRequest } from '../test/support/model-server.js';
import { NEEDLE_KEY, startNeedleStandIn, type NeedleStandIn } from '../test/support/needle-stand-in.js';
import { startTestServer, type TestServer } from '../test/support/server.js';

let model: ModelServer;
let server: TestServer;
let needle: NeedleStandIn;
let assembly: AssemblyStandIn;
let client: LangflowClient;
const restore: (() => void)[] = [];

t.before(async () => {
  model = await startModelServer();
  needle = await startNeedleStandIn();
  assembly = await startAssemblyStandIn();
  restore.push(needle.setBaseUrl('FLOWSVC_NEEDLE_BASE_URL'), assembly.setBaseUrl('FLOWSVC_ASSEMBLYAI_BASE_URL'));
  Object.assign(process.env, { OPENAI_BASE_URL: model.baseURL, OPENAI_API_KEY: 'sk-from-the-environment', NEEDLE_API_KEY: NEEDLE_KEY, ASSEMBLYAI_API_KEY: ASSEMBLYAI_KEY });
  // Private networks stay refused: each stand-in is reached as its service's configured base URL.
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'true', ALLOW_PRIVATE_NETWORK: 'false' });
  client = new LangflowClient({ baseUrl: server.url, apiKey: server.apiKey });
});
t.teardown(async () => {
  restore.forEach((undo) => undo());
  await server.close();
  await Promise.all([model.close(), needle.close(), assembly.close()]);
});

async function uploadStarter(name: string): Promise<{ id: string; flow: any }> {
  const flow = starterFlow(`current/${name}`);
  const res = await upload(server, '/api/v1/flows/upload/', JSON.stringify(flow), `${name}.json`);
  const [created] = await res.json();
  if (res.status !== 201 || 'unsupported_nodes' in created) throw new Error(`${name}: ${res.status} ${JSON.stringify(created.unsupported_nodes)}`);
  return { id: created.id, flow };
}

const nodeId = (flow: any, type: string): string => flow.data.nodes.find((n: any) => n.data.type === type).id;
const toolMessage = (request: RecordedRequest) => request.body.messages.find((m: { role: string }) => m.role === 'tool');

t.test('Invoice Summarizer: the Agent searches the Needle collection through its tool and answers from it', async (t) => {
  const { id } = await uploadStarter('Invoice Summarizer');
  const before = needle.seen.length;
  model.script({ toolCalls: [{ name: 'run', arguments: { query: 'total of invoice 42' } }] }, (request) => ({ text: `Summary: ${toolMessage(request)?.content}` }));
  const reply = await client.flow(id).run('Summarize invoice 42');
  const [search] = needle.seen.slice(before);
  t.equal(search!.path, `/api/v1/collections/${encodeURIComponent('<ENTER YOUR COLLECTION ID>')}/search`, 'the collection as shipped');
  t.equal(search!.headers['x-api-key'], NEEDLE_KEY, 'NEEDLE_API_KEY from the environment');
  t.same(search!.json(), { text: 'total of invoice 42', top_k: 20 });
  t.match(reply.chatOutputText(), /^Summary: [^]*total 1200 EUR/);
});

t.test('Meeting Summary: the uploaded recording is transcribed, polled, parsed and summarized', async (t) => {
  const { id, flow } = await uploadStarter('Meeting Summary');
  const form = new FormData();
  form.append('file', new Blob(['the quarterly planning meeting'], { type: 'audio/mpeg' }), 'meeting.mp3');
  const audio = (await (await server.request('/api/v2/files', { method: 'POST', body: form })).json()).path;
  const before = model.chats.length;
  const reply = await client.flow(id).run('What was decided?', { tweaks: { [nodeId(flow, 'AssemblyAITranscriptionJobCreator')]: { audio_file: audio } } as never });
  t.equal(assembly.uploads.at(-1)!.toString(), 'the quarterly planning meeting', 'the recording went to AssemblyAI');
  t.match([...assembly.jobs.values()].at(-1)!.request, { speaker_labels: true, speech_model: 'best' }, 'the node\'s options as shipped');
  const texts = reply.outputs.flatMap((o: any) => o.outputs.map((out: any) => String(out.results?.message?.text ?? '')));
  t.ok(texts.some((text) => text.includes('Transcript of the quarterly planning meeting')), 'the parsed transcript reaches its Chat Output');
  const prompts = model.chats.slice(before).map((call) => JSON.stringify(call.body.messages));
  t.ok(prompts.some((p) => p.includes('Transcript of the quarterly planning meeting')), 'and the summary model reads it');
});
