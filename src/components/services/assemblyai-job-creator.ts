/**
 * AssemblyAI Start Transcript (`AssemblyAITranscriptionJobCreator`): uploads the caller's audio file (or takes an
 * audio URL) and submits a transcription job; its output is the job's id, for the poller. As in Langflow, what the
 * service refuses comes out as a Data with an `error` key (the poller passes it on); a missing key stops the run.
 */
import { createReadStream } from 'node:fs';
import { createData } from '../../values/data.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, choice, file, secret, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { assemblyCall, assemblyKey } from './assemblyai.js';
import { serviceTimeoutSeconds } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';

const AUDIO_TYPES = ['3ga', '8svx', 'aac', 'ac3', 'aif', 'aiff', 'alac', 'amr', 'ape', 'au', 'dss', 'flac', 'flv', 'm4a', 'm4b', 'm4p', 'm4r', 'mp3', 'mpga', 'ogg', 'oga', 'mogg', 'opus', 'qcp', 'tta', 'voc', 'wav', 'wma', 'wv', 'webm', 'mts', 'm2ts', 'ts', 'mov', 'mp2', 'mp4', 'm4p', 'm4v', 'mxf'];
/** An upload carries a whole recording: it may take this many times a service request's timeout. */
const UPLOAD_TIMEOUT_FACTOR = 10;

export const assemblyJobCreator = defineComponent({
  type: 'AssemblyAITranscriptionJobCreator',
  version: 1,
  displayName: 'AssemblyAI Start Transcript',
  description: 'Create a transcription job for an audio file using AssemblyAI with advanced options',
  category: 'assemblyai',
  icon: 'AssemblyAI',
  fields: {
    api_key: secret({ displayName: 'Assembly API Key', info: 'Your AssemblyAI API key. You can get one from https://www.assemblyai.com/', required: true }),
    audio_file: file({ displayName: 'Audio File', info: 'The audio file to transcribe', fileTypes: AUDIO_TYPES, required: true }),
    audio_file_url: text({ displayName: 'Audio File URL', info: 'The URL of the audio file to transcribe (Can be used instead of a File)', advanced: true }),
    speech_model: choice({ displayName: 'Speech Model', info: 'The speech model to use for the transcription', options: ['best', 'nano'], advanced: true }),
    language_detection: bool({ displayName: 'Automatic Language Detection', info: 'Enable automatic language detection', advanced: true }),
    language_code: text({ displayName: 'Language', info: 'The language of the audio file. Can be set manually if automatic language detection is disabled.', advanced: true }),
    speaker_labels: bool({ displayName: 'Enable Speaker Labels', info: 'Enable speaker diarization' }),
    speakers_expected: text({ displayName: 'Expected Number of Speakers', info: 'Set the expected number of speakers (optional, enter a number)', advanced: true }),
    punctuate: bool({ displayName: 'Punctuate', info: 'Enable automatic punctuation', value: true, advanced: true }),
    format_text: bool({ displayName: 'Format Text', info: 'Enable text formatting', value: true, advanced: true }),
  },
  outputs: [{ name: 'transcript_id', displayName: 'Transcript ID', types: ['Data'], method: 'create_transcription_job' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const key = await assemblyKey(inputs.api_key, ctx);
    const failed = (error: string) => ({ transcript_id: createData({ error }) });
    let speakersExpected: number | undefined;
    if (inputs.speakers_expected.trim()) {
      speakersExpected = Number(inputs.speakers_expected.trim());
      if (!Number.isInteger(speakersExpected)) return failed('Error: Expected Number of Speakers must be a valid integer');
    }
    const [audioFile] = inputs.audio_file;
    const audioUrl = inputs.audio_file_url.trim();
    if (!audioFile && !audioUrl) return failed('Error: Either an audio file or an audio URL must be specified');
    const config = {
      speech_model: inputs.speech_model,
      language_detection: inputs.language_detection,
      ...(inputs.language_code.trim() ? { language_code: inputs.language_code.trim() } : {}),
      speaker_labels: inputs.speaker_labels,
      ...(speakersExpected !== undefined ? { speakers_expected: speakersExpected } : {}),
      punctuate: inputs.punctuate,
      format_text: inputs.format_text,
    };
    try {
      // A file wins over a URL, as in Langflow.
      const audio = audioFile ? await upload(key, audioFile, ctx) : audioUrl;
      const job = await assemblyCall(key, '/v2/transcript', { json: { audio_url: audio, ...config } }, ctx);
      if (typeof job.error === 'string' && job.error) return failed(job.error);
      if (typeof job.id !== 'string') throw new ServiceError('AssemblyAI answered the transcription request without a job id');
      return { transcript_id: createData({ transcript_id: job.id }) };
    } catch (error) {
      if (error instanceof ServiceError) return failed(`An error occurred: ${error.message}`);
      throw error;
    }
  },
});

/** The caller's file, streamed to AssemblyAI's upload endpoint: the URL AssemblyAI keeps it under. */
async function upload(key: string, path: string, ctx: ComponentContext): Promise<string> {
  if (!ctx.files) throw new ServiceError('Error: Audio file not found (this run reads no files)');
  const onDisk = await ctx.files.open(path);
  const uploaded = await assemblyCall(key, '/v2/upload', {
    method: 'POST',
    headers: { 'content-type': 'application/octet-stream' },
    body: createReadStream(onDisk),
    timeoutSeconds: serviceTimeoutSeconds() * UPLOAD_TIMEOUT_FACTOR,
  }, ctx);
  if (typeof uploaded.upload_url !== 'string') throw new ServiceError('AssemblyAI answered the upload without an upload_url');
  return uploaded.upload_url;
}
