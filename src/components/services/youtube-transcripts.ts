/**
 * YouTube Transcripts (`YouTubeTranscripts`): a video's English captions (translated when asked) as time chunks
 * (a Table of mm:ss timestamps and texts), as one text (Message), and as Data with the video's URL. As in Langflow,
 * a failure is the output's own error (an `error` row, the Message's text, the Data's `error`), so an Agent using
 * it as a tool reads why; the Youtube Analysis starter gives it to an Agent.
 */
import { createData } from '../../values/data.js';
import { createMessage } from '../../values/message.js';
import { createTable } from '../../values/table.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { int, str, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { withToolMode } from '../tools/tool-mode.js';
import { ServiceError } from './service-failure.js';
import { captionsOf, type Segment } from './youtube-captions.js';

const TRANSLATIONS = ['', 'en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'ja', 'ko', 'hi', 'ar', 'id'];

const transcriptsDefinition = defineComponent({
  type: 'YouTubeTranscripts',
  version: 1,
  displayName: 'YouTube Transcripts',
  description: 'Extracts spoken content from YouTube videos with multiple output options.',
  category: 'youtube',
  icon: 'YouTube',
  fields: {
    url: text({ displayName: 'Video URL', info: 'Enter the YouTube video URL to get transcripts from.', toolMode: true, required: true, multiline: true }),
    chunk_size_seconds: int({ displayName: 'Chunk Size (seconds)', info: 'The size of each transcript chunk in seconds.', value: 60 }),
    translation: str({ displayName: 'Translation Language', info: 'Translate the transcripts to the specified language. Leave empty for no translation.', options: TRANSLATIONS, value: '', advanced: true }),
  },
  outputs: [
    { name: 'dataframe', displayName: 'Chunks', types: ['DataFrame'], method: 'get_dataframe_output' },
    { name: 'message', displayName: 'Transcript', types: ['Message'], method: 'get_message_output' },
    { name: 'data_output', displayName: 'Transcript + Source', types: ['Data'], method: 'get_data_output' },
  ],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    let segments: Segment[] = [];
    let failure: string | undefined;
    try {
      segments = await load(inputs.url, inputs.translation, ctx);
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      failure = error.message;
    }
    const whole = segments.map((s) => s.text).join(' ');
    const outputs: Record<string, unknown> = {};
    if (ctx.requested.has('dataframe')) outputs.dataframe = createTable(failure ? [{ error: `Failed to get YouTube transcripts: ${failure}` }] : chunksOf(segments, inputs.chunk_size_seconds));
    if (ctx.requested.has('message')) outputs.message = createMessage({ text: failure ? `Failed to get YouTube transcripts: ${failure}` : whole });
    if (ctx.requested.has('data_output')) {
      outputs.data_output = createData(failure ? { transcript: '', video_url: inputs.url, error: failure } : segments.length === 0 ? { transcript: '', video_url: inputs.url, error: 'No transcripts found.' } : { transcript: whole, video_url: inputs.url });
    }
    return outputs;
  },
});

async function load(url: string, translation: string, ctx: ComponentContext): Promise<Segment[]> {
  const match = /(?:youtube\.com\/watch\?v=|youtu\.be\/|youtube\.com\/embed\/)([^&\n?#]+)/.exec(url) ?? /youtube\.com\/watch\?.*?v=([^&\n?#]+)/.exec(url);
  if (!match) throw new ServiceError(`Invalid YouTube URL: Could not extract video ID from URL: ${url}`);
  try {
    return await captionsOf(match[1]!, translation, ctx);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    throw new ServiceError(`Could not retrieve transcripts for video '${match[1]}': ${error.message}`, error.status);
  }
}

/** Segments grouped into windows of `size` seconds, each stamped mm:ss at its start (Langflow's chunking). */
function chunksOf(segments: Segment[], size: number): { timestamp: string; text: string }[] {
  const chunks: { timestamp: string; text: string }[] = [];
  let current: Segment[] = [];
  let start = 0;
  const flush = () => {
    const seconds = Math.trunc(start);
    chunks.push({ timestamp: `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`, text: current.map((s) => s.text).join(' ') });
  };
  for (const segment of segments) {
    if (segment.start - start >= size && current.length > 0) {
      flush();
      current = [];
      start = segment.start;
    }
    current.push(segment);
  }
  if (current.length > 0) flush();
  return chunks;
}

export const youtubeTranscripts = withToolMode(transcriptsDefinition);
