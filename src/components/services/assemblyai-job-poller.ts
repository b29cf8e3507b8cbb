/**
 * AssemblyAI Poll Transcript (`AssemblyAITranscriptionJobPoller`): waits for a transcription job (GET
 * /v2/transcript/{id}) and outputs the finished transcript as Data (text, utterances, id, then the rest), or the
 * job's error. Polls with backoff from the node's interval, waits as long as a 429 asks, and stops with the run
 * (cancelled, or past the job timeout).
 */
import { createData, isData, type DataValue } from '../../values/data.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { float, handle, secret } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { assemblyCall, assemblyKey } from './assemblyai.js';
import { pollWithBackoff } from './backoff-poll.js';
import { ServiceError } from './service-failure.js';

const MAX_DELAY_MS = 30_000;
/** Answers a job may fail in a row (5xx, timeouts) before the poller gives up. */
const TRANSIENT_FAILURES_ALLOWED = 3;

export const assemblyJobPoller = defineComponent({
  type: 'AssemblyAITranscriptionJobPoller',
  version: 1,
  displayName: 'AssemblyAI Poll Transcript',
  description: 'Poll for the status of a transcription job using AssemblyAI',
  category: 'assemblyai',
  icon: 'AssemblyAI',
  fields: {
    api_key: secret({ displayName: 'Assembly API Key', info: 'Your AssemblyAI API key. You can get one from https://www.assemblyai.com/', required: true }),
    transcript_id: { ...handle({ displayName: 'Transcript ID', info: 'The ID of the transcription job to poll', inputTypes: ['Data', 'JSON'], required: true }), inputClass: 'DataInput' },
    polling_interval: float({ displayName: 'Polling Interval', info: 'The polling interval in seconds', value: 3, min: 3, max: 30, advanced: true }),
  },
  outputs: [{ name: 'transcription_result', displayName: 'Transcription Result', types: ['Data'], method: 'poll_transcription_job' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const key = await assemblyKey(inputs.api_key, ctx);
    const job = isData(inputs.transcript_id) ? inputs.transcript_id : undefined;
    // The creator's error passes through, as in Langflow.
    if (job?.data.error) return { transcription_result: job };
    const id = job?.data.transcript_id;
    if (typeof id !== 'string' || !id) return { transcription_result: createData({ error: 'Getting transcription failed: no transcript_id in "Transcript ID" (transcript_id)' }) };
    try {
      return { transcription_result: await finished(key, id, inputs.polling_interval, ctx) };
    } catch (error) {
      if (error instanceof ServiceError) return { transcription_result: createData({ error: `Getting transcription failed: ${error.message}` }) };
      throw error;
    }
  },
});

async function finished(key: string, id: string, intervalSeconds: number, ctx: ComponentContext): Promise<DataValue> {
  let failures = 0;
  const check = async (waitAtLeast: (ms: number) => void): Promise<DataValue | undefined> => {
    let job: Record<string, unknown>;
    try {
      job = await assemblyCall(key, `/v2/transcript/${encodeURIComponent(id)}`, {}, ctx);
      failures = 0;
    } catch (error) {
      if (!(error instanceof ServiceError) || !isTransient(error) || ++failures > TRANSIENT_FAILURES_ALLOWED) throw error;
      waitAtLeast((error.retryAfterSeconds ?? 0) * 1000);
      return undefined;
    }
    if (job.status === 'completed') return transcriptData(job);
    if (job.status === 'error') return createData({ error: typeof job.error === 'string' ? job.error : 'AssemblyAI reported an error without a message' });
    return undefined;
  };
  const firstDelayMs = intervalSeconds * 1000;
  return pollWithBackoff(check, { firstDelayMs, maxDelayMs: Math.max(MAX_DELAY_MS, firstDelayMs), factor: 1.5, signal: ctx.signal, what: 'The AssemblyAI transcript' });
}

/** Rate limiting, a server error or silence: worth asking again; a refused key or a missing job is not. */
const isTransient = (error: ServiceError) => error.status === undefined || error.status === 429 || error.status >= 500;

/** text, utterances and id first, then the rest of AssemblyAI's answer, as Langflow orders them. */
function transcriptData(job: Record<string, unknown>): DataValue {
  const { text, utterances, id, ...rest } = job;
  return createData({ text: text ?? null, utterances: utterances ?? null, id: id ?? null, ...rest });
}
