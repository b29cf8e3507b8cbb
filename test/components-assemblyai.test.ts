/**
 * AssemblyAI Start Transcript and Poll Transcript against a local stand-in of AssemblyAI's v2 API
 * (FLOWSVC_ASSEMBLYAI_BASE_URL), through the HTTP edge: upload, job, polling with backoff, each failure, and a
 * poll that stops when its run is cancelled or times out.
 */
import t, { type Test } from 'tap';
import { ASSEMBLYAI_KEY, startAssemblyStandIn, type AssemblyStandIn } from './support/assemblyai-stand-in.js';
import { readBuildStream, startBuild, getEvents } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { RETRY_AFTER_SECONDS } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';

let assembly: AssemblyStandIn;
let server: TestServer;
let restore: () => void;
let audioPath: string;

t.before(async () => {
  assembly = await startAssemblyStandIn();
  restore = assembly.setBaseUrl('FLOWSVC_ASSEMBLYAI_BASE_URL');
  server = await startTestServer({ FALLBACK_TO_ENV_VAR: 'false', JOB_TIMEOUT_SECONDS: '6' });
  const form = new FormData();
  form.append('file', new Blob(['the weekly meeting'], { type: 'audio/mpeg' }), 'meeting.mp3');
  audioPath = (await (await server.request('/api/v2/files', { method: 'POST', body: form })).json()).path;
});
t.teardown(async () => {
  restore();
  await server.close();
  await assembly.close();
});
t.afterEach(() => {
  assembly.mode = 'ok';
  Object.assign(assembly.settings, { pollsBeforeDone: 0, failJobs: false, rateLimitedPolls: 0 });
});

const transcriptFlow = (creator: Record<string, unknown>, poller: Record<string, unknown> = {}) =>
  flow('Transcribe', [
    node('AssemblyAITranscriptionJobCreator-c1', 'AssemblyAITranscriptionJobCreator', { api_key: ASSEMBLYAI_KEY, speaker_labels: true, ...creator }, 'AssemblyAI Start Transcript'),
    node('AssemblyAITranscriptionJobPoller-p1', 'AssemblyAITranscriptionJobPoller', { api_key: ASSEMBLYAI_KEY, ...poller }, 'AssemblyAI Poll Transcript'),
    node('ChatOutput-out01', 'ChatOutput'),
  ], [
    edge('AssemblyAITranscriptionJobCreator-c1', 'transcript_id', 'AssemblyAITranscriptionJobPoller-p1', 'transcript_id'),
    edge('AssemblyAITranscriptionJobPoller-p1', 'transcription_result', 'ChatOutput-out01', 'input_value'),
  ]);

async function run(creator: Record<string, unknown>, poller?: Record<string, unknown>) {
  const created = await createFlow(server, transcriptFlow(creator, poller));
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: { input_value: '' } });
  const body = await res.json();
  return { status: res.status, body, text: res.status === 200 ? String(body.outputs[0].outputs[0].results.message.text) : '' };
}

t.test('a file is uploaded, transcribed and polled until done, with the node\'s options', async (t) => {
  assembly.settings.pollsBeforeDone = 1;
  const { status, text } = await run({ audio_file: { value: 'meeting.mp3', file_path: audioPath } });
  t.equal(status, 200);
  t.equal(assembly.uploads.at(-1)!.toString(), 'the weekly meeting', 'the file\'s bytes were uploaded');
  const job = [...assembly.jobs.values()].at(-1)!;
  t.same(job.request, { audio_url: `https://cdn.assemblyai.test/upload/${assembly.uploads.length - 1}`, speech_model: 'best', language_detection: false, speaker_labels: true, punctuate: true, format_text: true });
  t.equal(job.polls, 2, 'polled until the job completed');
  t.match(text, /Transcript of the weekly meeting/);
});

t.test('an audio URL instead of a file, with a language and a number of speakers', async (t) => {
  const { status, text } = await run({ audio_file_url: 'https://example.com/talk.mp3', language_code: 'de', speakers_expected: '3' });
  t.equal(status, 200);
  t.match([...assembly.jobs.values()].at(-1)!.request, { audio_url: 'https://example.com/talk.mp3', language_code: 'de', speakers_expected: 3 });
  t.match(text, /Transcript of audio at https:\/\/example.com\/talk.mp3/);
});

t.test('no key: a 400 naming ASSEMBLYAI_API_KEY, and no request leaves', async (t) => {
  const before = assembly.seen.length;
  const { status, body } = await run({ api_key: '', audio_file_url: 'https://example.com/a.mp3' });
  t.equal(status, 400);
  t.match(body.detail, /AssemblyAI needs an API key and the "Assembly API Key" field \(api_key\) is empty: Variable ASSEMBLYAI_API_KEY not found/);
  t.equal(assembly.seen.length, before);
});

t.test('what AssemblyAI refuses comes out as an error in the Data, naming AssemblyAI, as Langflow does', async (t) => {
  t.match((await run({ audio_file_url: '' })).text, /Either an audio file or an audio URL must be specified/);
  t.match((await run({ audio_file_url: 'https://x.test/a.mp3', speakers_expected: 'two' })).text, /Expected Number of Speakers must be a valid integer/);
  assembly.mode = 'unauthorized';
  t.match((await run({ audio_file_url: 'https://x.test/a.mp3' })).text, /An error occurred: AssemblyAI refused the API key \(401\)/);
  assembly.mode = 'rate-limited';
  t.match((await run({ audio_file_url: 'https://x.test/a.mp3' })).text, new RegExp(`AssemblyAI is limiting requests \\(429\\); it asks to retry after ${RETRY_AFTER_SECONDS} s`));
  assembly.mode = 'ok';
  assembly.settings.failJobs = true;
  t.match((await run({ audio_file_url: 'https://x.test/a.mp3' })).text, /Download error, unable to download audio/);
});

t.test('a file that is not the caller\'s is refused as File refuses it, and nothing is uploaded', async (t) => {
  const uploads = assembly.uploads.length;
  const { status, body } = await run({ audio_file: { value: 'passwd', file_path: '/etc/passwd' } });
  t.equal(status, 500);
  t.match(body.detail, /AssemblyAI Start Transcript/);
  t.equal(assembly.uploads.length, uploads);
});

t.test('a silent service times out with its name', async (t) => {
  assembly.mode = 'silent';
  process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '0.5';
  try {
    t.match((await run({ audio_file_url: 'https://x.test/a.mp3' })).text, /AssemblyAI did not answer within 0.5 s/);
  } finally {
    delete process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS;
  }
});

t.test('a poll answered 429 waits as long as Retry-After says, then goes on', async (t) => {
  assembly.settings.rateLimitedPolls = 1;
  const started = Date.now();
  const { text } = await run({ audio_file_url: 'https://x.test/a.mp3' });
  t.match(text, /Transcript of audio at https:\/\/x.test\/a.mp3/);
  t.ok(Date.now() - started >= 1000, 'it waited at least the second asked for');
});

t.test('polling stops when the run times out (FLOWSVC_JOB_TIMEOUT_SECONDS), and when it is cancelled', async (t) => {
  assembly.settings.pollsBeforeDone = 1_000;
  const timedOut = await run({ audio_file_url: 'https://x.test/a.mp3' });
  t.not(timedOut.status, 200);
  t.match(JSON.stringify(timedOut.body), /exceeded 6 seconds/);
  await pollsStop(t);

  const created = await createFlow(server, transcriptFlow({ audio_file_url: 'https://x.test/a.mp3' }));
  const firstPoll = waitForPoll();
  const jobId = await startBuild(server, created.id);
  await firstPoll;
  const cancel = await server.request(`/api/v1/build/${jobId}/cancel`, { method: 'POST' });
  t.equal(cancel.status, 200);
  await readBuildStream(await getEvents(server, jobId));
  await pollsStop(t);
});

async function waitForPoll(): Promise<void> {
  for (;;) if ((await assembly.nextRequest()).method === 'GET') return;
}

/** No poll arrives over longer than the poller's interval (3 s): the poller is gone. */
async function pollsStop(t: Test): Promise<void> {
  const before = assembly.seen.length;
  await new Promise((resolve) => setTimeout(resolve, 3_500));
  t.equal(assembly.seen.length, before, 'no poll after the run ended');
}
