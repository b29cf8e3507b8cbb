/**
 * YouTube Transcripts against a local stand-in of YouTube's web endpoints (FLOWSVC_YOUTUBE_BASE_URL), through the
 * HTTP edge: chunks, the whole text, Data with its source, translation, and failures as each output's own error.
 */
import t from 'tap';
import { buildEvents, startBuild } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import type { ServiceStandIn } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startYoutubeWebStandIn } from './support/youtube-web-stand-in.js';

let youtube: ServiceStandIn;
let server: TestServer;
let restore: () => void;

t.before(async () => {
  youtube = await startYoutubeWebStandIn();
  restore = youtube.setBaseUrl('FLOWSVC_YOUTUBE_BASE_URL');
  server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'false' });
});
t.teardown(async () => {
  restore();
  await server.close();
  await youtube.close();
});

async function transcript(template: Record<string, unknown>) {
  const id = 'YouTubeTranscripts-y1';
  const created = await createFlow(server, flow('Transcripts', [node(id, 'YouTubeTranscripts', template, 'YouTube Transcripts'), node('ChatOutput-a', 'ChatOutput'), node('ChatOutput-b', 'ChatOutput'), node('ChatOutput-c', 'ChatOutput')], [
    edge(id, 'dataframe', 'ChatOutput-a', 'input_value'),
    edge(id, 'message', 'ChatOutput-b', 'input_value'),
    edge(id, 'data_output', 'ChatOutput-c', 'input_value'),
  ]));
  const events = await buildEvents(server, await startBuild(server, created.id));
  const outputs = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === id)!.data.build_data.data.outputs;
  return { chunks: outputs.dataframe.message, text: outputs.message.message, data: outputs.data_output.message };
}

t.test('English captions (the generated track, there being no manual one) as chunks, text and Data', async (t) => {
  const url = 'https://www.youtube.com/watch?v=vid42&t=3';
  const { chunks, text, data } = await transcript({ url, chunk_size_seconds: 60 });
  t.same(chunks, [{ timestamp: '00:00', text: 'Welcome & hello to the show' }, { timestamp: '01:15', text: 'goodbye' }]);
  t.equal(text, 'Welcome & hello to the show goodbye');
  t.match(data, { transcript: 'Welcome & hello to the show goodbye', video_url: url });
  const track = youtube.seen.at(-1)!;
  t.equal(track.query.get('lang'), 'en');
  t.equal(track.query.get('fmt'), null, 'the XML format, not srv3');
  const small = await transcript({ url: 'https://youtu.be/vid42', chunk_size_seconds: 20 });
  t.same(small.chunks.map((c: any) => c.timestamp), ['00:00', '00:30', '01:15']);
});

t.test('a translation asks for the track in that language', async (t) => {
  const { text } = await transcript({ url: 'https://youtu.be/vid42', translation: 'fr' });
  t.match(text, /^\[fr\] Welcome/);
  t.equal(youtube.seen.at(-1)!.query.get('tlang'), 'fr');
});

t.test('failures are each output\'s own error, naming the video', async (t) => {
  const none = await transcript({ url: 'https://youtu.be/nocaps' });
  t.match(none.chunks, [{ error: /^Failed to get YouTube transcripts: Could not retrieve transcripts for video 'nocaps': TranscriptsDisabled/ }]);
  t.match(none.text, /^Failed to get YouTube transcripts: /);
  t.match(none.data, { transcript: '', error: /TranscriptsDisabled/ });
  t.match((await transcript({ url: 'https://youtu.be/private' })).text, /not playable: This video is private/);
  t.match((await transcript({ url: 'not a video' })).text, /Invalid YouTube URL/);
  youtube.mode = 'rate-limited';
  t.match((await transcript({ url: 'https://youtu.be/vid42' })).text, /YouTube is limiting requests \(429\)/);
  youtube.mode = 'ok';
});
