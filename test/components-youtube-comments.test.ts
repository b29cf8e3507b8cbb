/**
 * YouTube Comments against a local stand-in of the YouTube Data API (FLOWSVC_YOUTUBE_BASE_URL), through the HTTP
 * edge: paging up to Max Results, the rows and columns Langflow makes, replies, the key, and failures.
 */
import t from 'tap';
import { buildEvents, startBuild } from './support/builds.js';
import { createFlow } from './support/flow-helpers.js';
import { edge, flow, node } from './support/langflow-json.js';
import { RETRY_AFTER_SECONDS, type ServiceStandIn } from './support/service-stand-in.js';
import { startTestServer, type TestServer } from './support/server.js';
import { startYoutubeStandIn, YOUTUBE_KEY } from './support/youtube-stand-in.js';

let youtube: ServiceStandIn;
let server: TestServer;
let restore: () => void;

t.before(async () => {
  youtube = await startYoutubeStandIn(7);
  restore = youtube.setBaseUrl('FLOWSVC_YOUTUBE_BASE_URL');
  server = await startTestServer({ ALLOW_PRIVATE_NETWORK: 'false', FALLBACK_TO_ENV_VAR: 'false' });
});
t.teardown(async () => {
  restore();
  await server.close();
  await youtube.close();
});
t.afterEach(() => {
  youtube.mode = 'ok';
});

async function comments(template: Record<string, unknown>): Promise<{ rows?: any[]; error?: string; status: number }> {
  const created = await createFlow(server, flow('Comments', [node('YouTubeCommentsComponent-y1', 'YouTubeCommentsComponent', { api_key: YOUTUBE_KEY, video_url: 'https://www.youtube.com/watch?v=abc123&t=5', ...template }, 'YouTube Comments'), node('ChatOutput-out01', 'ChatOutput')], [edge('YouTubeCommentsComponent-y1', 'comments', 'ChatOutput-out01', 'input_value')]));
  const res = await server.request(`/api/v1/run/${created.id}`, { method: 'POST', json: {} });
  if (res.status !== 200) return { status: res.status, error: (await res.json()).detail };
  const events = await buildEvents(server, await startBuild(server, created.id));
  const built = events.find((e) => e.event === 'end_vertex' && e.data.build_data.id === 'YouTubeCommentsComponent-y1');
  return { status: 200, rows: built!.data.build_data.data.outputs.comments.message };
}

t.test('comments page by page up to Max Results, in Langflow\'s columns', async (t) => {
  const before = youtube.seen.length;
  const { rows } = await comments({ max_results: 5, sort_by: 'time' });
  const pages = youtube.seen.slice(before, before + 1);
  t.same(pages.map((r) => [r.query.get('videoId'), r.query.get('maxResults'), r.query.get('order'), r.query.get('part'), r.query.get('textFormat')]), [['abc123', '5', 'time', 'snippet,replies', 'plainText']]);
  t.equal(rows!.length, 5);
  t.same(Object.keys(rows![0]), ['video_id', 'video_url', 'comment_id', 'parent_comment_id', 'is_reply', 'author', 'author_channel_url', 'text', 'published_at', 'updated_at', 'like_count', 'reply_count']);
  t.match(rows![0], { video_id: 'abc123', video_url: 'https://www.youtube.com/watch?v=abc123&t=5', comment_id: 'c0', parent_comment_id: '', is_reply: false, author: 'viewer 0', text: 'comment 0', like_count: 0, reply_count: 1 });
  const many = await comments({ max_results: 150 });
  t.equal(many.rows!.length, 7, 'every thread there is, across pages');
});

t.test('replies follow their comment; without metrics the counts are left out', async (t) => {
  const { rows } = await comments({ max_results: 2, include_replies: true, include_metrics: false });
  t.same(rows!.map((r) => [r.comment_id, r.parent_comment_id, r.is_reply]), [['c0', '', false], ['c0.r', 'c0', true], ['c1', '', false], ['c1.r', 'c1', true]]);
  t.notOk('like_count' in rows![0]);
});

t.test('the key is required before any request; API errors are a one-row error table', async (t) => {
  const before = youtube.seen.length;
  const missing = await comments({ api_key: '' });
  t.equal(missing.status, 400);
  t.match(missing.error, /YouTube needs an API key and the "YouTube API Key" field \(api_key\) is empty: Variable YOUTUBE_API_KEY not found/);
  t.equal(youtube.seen.length, before);
  t.same((await comments({ video_url: 'https://youtu.be/missing' })).rows, [{ error: 'Video not found.' }]);
  t.same((await comments({ video_url: 'https://www.youtube.com/shorts/closed' })).rows, [{ error: 'Comments are disabled for this video or API quota exceeded.' }]);
  t.same((await comments({ api_key: 'wrong' })).rows, [{ error: 'YouTube API error: YouTube answered 400: API key not valid. Please pass a valid API key.' }]);
  youtube.mode = 'rate-limited';
  t.same((await comments({})).rows, [{ error: `YouTube API error: YouTube is limiting requests (429); it asks to retry after ${RETRY_AFTER_SECONDS} s` }]);
});

t.test('silence fails the run, naming YouTube', async (t) => {
  youtube.mode = 'silent';
  process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS = '0.5';
  try {
    const { status, error } = await comments({});
    t.equal(status, 500);
    t.match(error, /YouTube did not answer within 0.5 s/);
  } finally {
    delete process.env.FLOWSVC_SERVICE_TIMEOUT_SECONDS;
  }
});
