/**
 * The YouTube Data API v3 as YouTube Comments calls it: GET /youtube/v3/commentThreads with `key`, pages of at
 * most `maxResults` threads linked by nextPageToken, over `threadCount` threads; a video id "missing" answers 404
 * and "closed" 403 (comments disabled), as Google does.
 */
import { sendJson, startServiceStandIn, type ServiceStandIn, type StandInRoute } from './service-stand-in.js';

export const YOUTUBE_KEY = 'yt-test-key';

export const startYoutubeStandIn = (threadCount = 7): Promise<ServiceStandIn> => startServiceStandIn(youtubeApiRoutes(threadCount));

/** The routes alone: one stand-in may serve them with the web pages' (both components read FLOWSVC_YOUTUBE_BASE_URL). */
export function youtubeApiRoutes(threadCount: number): Record<string, StandInRoute> {
  return {
    'GET /youtube/v3/commentThreads': (req, res) => {
      if (req.query.get('key') !== YOUTUBE_KEY) return sendJson(res, 400, { error: { code: 400, message: 'API key not valid. Please pass a valid API key.' } });
      const videoId = req.query.get('videoId');
      if (videoId === 'missing') return sendJson(res, 404, { error: { code: 404, message: 'The video identified by the videoId parameter could not be found.' } });
      if (videoId === 'closed') return sendJson(res, 403, { error: { code: 403, message: 'The video has disabled comments.' } });
      const start = Number(req.query.get('pageToken') ?? 0);
      const size = Number(req.query.get('maxResults'));
      const items = Array.from({ length: Math.max(0, Math.min(size, threadCount - start)) }, (_, i) => thread(start + i));
      sendJson(res, 200, { items, ...(start + size < threadCount ? { nextPageToken: String(start + size) } : {}) });
    },
  };
}

function thread(i: number) {
  const snippet = { authorDisplayName: `viewer ${i}`, authorChannelUrl: `https://youtube.test/c/${i}`, textDisplay: `comment ${i}`, publishedAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-02T00:00:00Z', likeCount: i };
  return {
    id: `t${i}`,
    snippet: { topLevelComment: { id: `c${i}`, snippet }, totalReplyCount: 1 },
    replies: { comments: [{ id: `c${i}.r`, snippet: { authorDisplayName: 'creator', textDisplay: `reply to ${i}`, publishedAt: '2026-01-03T00:00:00Z', likeCount: 1 } }] },
  };
}
