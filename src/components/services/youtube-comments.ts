/**
 * YouTube Comments (`YouTubeCommentsComponent`): a video's comment threads from the YouTube Data API v3
 * (GET /youtube/v3/commentThreads, page after page up to Max Results) as a Table, one row per comment (and per
 * reply when asked), columns in Langflow's order. As in Langflow, an HTTP error from the API is a one-row table
 * with an `error` column; a missing key stops the run first.
 */
import { createTable } from '../../values/table.js';
import { defineComponent, type ComponentContext } from '../contract.js';
import { bool, choice, int, secret, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { withToolMode } from '../tools/tool-mode.js';
import type { KeyedServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { callService } from './service-fetch.js';
import { serviceKey } from './service-key.js';

export const YOUTUBE: KeyedServiceInfo = { name: 'YouTube', setting: 'YOUTUBE', defaultBaseUrl: 'https://www.googleapis.com', keyVariable: 'YOUTUBE_API_KEY' };
const KEY_FIELD = { name: 'api_key', displayName: 'YouTube API Key' };
const API_MAX_RESULTS = 100;
const COLUMNS = ['video_id', 'video_url', 'comment_id', 'parent_comment_id', 'is_reply', 'author', 'author_channel_url', 'text', 'published_at', 'updated_at'];
const METRIC_COLUMNS = ['like_count', 'reply_count'];

type Json = Record<string, any>;

const commentsDefinition = defineComponent({
  type: 'YouTubeCommentsComponent',
  version: 1,
  displayName: 'YouTube Comments',
  description: 'Retrieves and analyzes comments from YouTube videos.',
  category: 'youtube',
  icon: 'YouTube',
  fields: {
    video_url: text({ displayName: 'Video URL', info: 'The URL of the YouTube video to get comments from.', toolMode: true, required: true }),
    api_key: secret({ displayName: 'YouTube API Key', info: 'Your YouTube Data API key.', required: true, loadFromDb: false }),
    max_results: int({ displayName: 'Max Results', info: 'The maximum number of comments to return.', value: 20, min: 1 }),
    sort_by: choice({ displayName: 'Sort By', info: 'Sort comments by time or relevance.', options: ['time', 'relevance'], value: 'relevance' }),
    include_replies: bool({ displayName: 'Include Replies', info: 'Whether to include replies to comments.', advanced: true }),
    include_metrics: bool({ displayName: 'Include Metrics', info: 'Include metrics like like count and reply count.', value: true, advanced: true }),
  },
  outputs: [{ name: 'comments', displayName: 'Comments', types: ['DataFrame'], method: 'get_video_comments' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const key = await serviceKey(YOUTUBE, inputs.api_key, ctx, KEY_FIELD);
    const videoId = videoIdOf(inputs.video_url);
    try {
      const threads = await commentThreads(key, videoId, inputs.max_results, inputs.sort_by, ctx);
      const columns = inputs.include_metrics ? [...COLUMNS, ...METRIC_COLUMNS] : COLUMNS;
      const rows = threads.flatMap((thread) => commentsOf(thread, inputs.include_metrics, inputs.include_replies));
      return { comments: createTable(rows.map((row) => Object.fromEntries(columns.map((c) => [c, { video_id: videoId, video_url: inputs.video_url, ...row }[c] ?? null])))) };
    } catch (error) {
      if (!(error instanceof ServiceError) || error.status === undefined) throw error;
      const message = error.status === 403 ? 'Comments are disabled for this video or API quota exceeded.' : error.status === 404 ? 'Video not found.' : `YouTube API error: ${error.message}`;
      return { comments: createTable([{ error: message }]) };
    }
  },
});

async function commentThreads(key: string, videoId: string, maxResults: number, order: string, ctx: ComponentContext): Promise<Json[]> {
  const threads: Json[] = [];
  let pageToken: string | undefined;
  do {
    const params = new URLSearchParams({ part: 'snippet,replies', videoId, maxResults: String(Math.min(API_MAX_RESULTS, maxResults - threads.length)), order, textFormat: 'plainText', key });
    if (pageToken) params.set('pageToken', pageToken);
    const page = (await callService(YOUTUBE, { path: `/youtube/v3/commentThreads?${params}` }, ctx)) as Json;
    threads.push(...((page.items as Json[] | undefined) ?? []).slice(0, maxResults - threads.length));
    pageToken = typeof page.nextPageToken === 'string' ? page.nextPageToken : undefined;
  } while (pageToken && threads.length < maxResults);
  return threads;
}

function commentsOf(thread: Json, includeMetrics: boolean, includeReplies: boolean): Json[] {
  const top = thread.snippet?.topLevelComment ?? {};
  const snippet = top.snippet ?? {};
  const comment: Json = {
    comment_id: top.id, parent_comment_id: '', author: snippet.authorDisplayName, author_channel_url: snippet.authorChannelUrl ?? '',
    text: snippet.textDisplay, published_at: snippet.publishedAt, updated_at: snippet.updatedAt, is_reply: false,
  };
  if (includeMetrics) Object.assign(comment, { like_count: snippet.likeCount, reply_count: thread.snippet?.totalReplyCount });
  const replies = includeReplies && thread.snippet?.totalReplyCount > 0 ? ((thread.replies?.comments as Json[] | undefined) ?? []) : [];
  return [comment, ...replies.map((reply) => replyOf(reply, top.id, includeMetrics))];
}

function replyOf(reply: Json, parentId: string, includeMetrics: boolean): Json {
  const s = reply.snippet ?? {};
  const row: Json = { comment_id: reply.id, parent_comment_id: parentId, author: s.authorDisplayName, text: s.textDisplay, published_at: s.publishedAt, is_reply: true };
  if (includeMetrics) Object.assign(row, { like_count: s.likeCount, reply_count: 0 });
  return row;
}

/** The id in a watch, youtu.be, embed or shorts URL; anything else is taken as the id itself, as in Langflow. */
export function videoIdOf(url: string): string {
  const match = /(?:youtube\.com\/watch\?v=|youtu\.be\/|youtube\.com\/embed\/|youtube\.com\/shorts\/)([^&\n?#]+)/.exec(url);
  return match ? match[1]! : url.trim();
}

export const youtubeComments = withToolMode(commentsDefinition, (inputs, ctx) => serviceKey(YOUTUBE, inputs.api_key, ctx, KEY_FIELD));
