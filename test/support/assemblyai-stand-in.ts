/**
 * AssemblyAI's v2 API as the two AssemblyAI components call it: POST /v2/upload (the audio bytes), POST
 * /v2/transcript (a job) and GET /v2/transcript/:id (its state). A job answers `processing` for as many polls as
 * `pollsBeforeDone` says, then `completed` with a transcript of what was uploaded, or `error` when
 * `failJobs` is set; the first `rateLimitedPolls` polls are refused with a 429 (Retry-After: 1). The key goes in `authorization`, bare, as AssemblyAI's SDK sends it.
 */
import { sendJson, startServiceStandIn, type ServiceStandIn } from './service-stand-in.js';

export const ASSEMBLYAI_KEY = 'aai-test-key';

export interface AssemblyStandIn extends ServiceStandIn {
  settings: { pollsBeforeDone: number; failJobs: boolean; rateLimitedPolls: number };
  jobs: Map<string, { request: any; polls: number }>;
  uploads: Buffer[];
}

export async function startAssemblyStandIn(): Promise<AssemblyStandIn> {
  const settings = { pollsBeforeDone: 0, failJobs: false, rateLimitedPolls: 0 };
  const jobs = new Map<string, { request: any; polls: number }>();
  const uploads: Buffer[] = [];
  const authorized = (headers: Record<string, unknown>) => headers.authorization === ASSEMBLYAI_KEY;
  const standIn = await startServiceStandIn({
    'POST /v2/upload': (req, res) => {
      if (!authorized(req.headers)) return sendJson(res, 401, { error: 'Authentication error, API token missing/invalid' });
      uploads.push(req.body);
      sendJson(res, 200, { upload_url: `https://cdn.assemblyai.test/upload/${uploads.length - 1}` });
    },
    'POST /v2/transcript': (req, res) => {
      if (!authorized(req.headers)) return sendJson(res, 401, { error: 'Authentication error, API token missing/invalid' });
      const id = `job-${jobs.size + 1}`;
      jobs.set(id, { request: req.json(), polls: 0 });
      sendJson(res, 200, { id, status: 'queued', error: null });
    },
    'GET /v2/transcript/:id': (req, res, { id }) => {
      if (!authorized(req.headers)) return sendJson(res, 401, { error: 'Authentication error, API token missing/invalid' });
      if (settings.rateLimitedPolls > 0) {
        settings.rateLimitedPolls -= 1;
        return void res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":"Too many requests"}');
      }
      const job = jobs.get(id!);
      if (!job) return sendJson(res, 404, { error: 'Transcript not found' });
      job.polls += 1;
      if (job.polls <= settings.pollsBeforeDone) return sendJson(res, 200, { id, status: 'processing', text: null });
      if (settings.failJobs) return sendJson(res, 200, { id, status: 'error', error: 'Download error, unable to download audio' });
      const source = String(job.request.audio_url);
      const upload = /\/upload\/(\d+)$/.exec(source);
      const said = upload ? uploads[Number(upload[1])]!.toString('utf8') : `audio at ${source}`;
      sendJson(res, 200, {
        status: 'completed',
        confidence: 0.93,
        text: `Transcript of ${said}`,
        id,
        utterances: [{ speaker: 'A', text: `Transcript of ${said}`, start: 0, end: 1200 }],
        audio_url: source,
      });
    },
  });
  return Object.assign(standIn, { settings, jobs, uploads });
}
