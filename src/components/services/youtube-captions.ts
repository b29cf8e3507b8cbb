/**
 * A YouTube video's captions, fetched the way the youtube-transcript-api package (1.x) fetches them: the watch page
 * for the page's Innertube key, the player endpoint (as the Android client) for the caption tracks, then the chosen
 * track's timed text (XML). English first: a manual track, else the generated one; translated with `tlang`.
 * FLOWSVC_YOUTUBE_BASE_URL, when set, replaces www.youtube.com here too, so one gateway or stand-in serves both
 * YouTube components.
 */
import { DOMParser } from '@xmldom/xmldom';
import type { ComponentContext } from '../contract.js';
import type { ServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { callService, requestService } from './service-fetch.js';
import { YOUTUBE } from './youtube-comments.js';

const WEB: ServiceInfo = { name: YOUTUBE.name, setting: YOUTUBE.setting, defaultBaseUrl: 'https://www.youtube.com' };
const ANDROID_CLIENT = { clientName: 'ANDROID', clientVersion: '20.10.38' };

export interface Segment {
  text: string;
  start: number;
  duration: number;
}

interface Track {
  baseUrl: string;
  languageCode: string;
  kind?: string;
}

export async function captionsOf(videoId: string, translation: string, ctx: ComponentContext): Promise<Segment[]> {
  const page = (await requestService(WEB, { path: `/watch?v=${encodeURIComponent(videoId)}`, headers: { 'accept-language': 'en-US' } }, ctx)).body;
  const apiKey = /"INNERTUBE_API_KEY":\s*"([a-zA-Z0-9_-]+)"/.exec(page)?.[1];
  if (!apiKey) throw new ServiceError(`YouTube is blocking automated requests or the video ${videoId} is unavailable (no Innertube key on its page)`);
  const player = (await callService(WEB, { path: `/youtubei/v1/player?key=${apiKey}`, json: { context: { client: ANDROID_CLIENT }, videoId } }, ctx)) as { playabilityStatus?: { status?: string; reason?: string }; captions?: { playerCaptionsTracklistRenderer?: { captionTracks?: Track[] } } };
  const status = player.playabilityStatus?.status;
  if (status && status !== 'OK') throw new ServiceError(`YouTube says the video ${videoId} is not playable: ${player.playabilityStatus?.reason ?? status}`);
  const tracks = player.captions?.playerCaptionsTracklistRenderer?.captionTracks ?? [];
  if (tracks.length === 0) throw new ServiceError(`TranscriptsDisabled: the video ${videoId} has no captions`);
  const english = tracks.find((t) => t.languageCode === 'en' && t.kind !== 'asr') ?? tracks.find((t) => t.languageCode === 'en');
  if (!english) throw new ServiceError(`NoTranscriptFound: no English transcript for the video ${videoId} (available: ${tracks.map((t) => t.languageCode).join(', ')})`);
  const url = english.baseUrl.replace('&fmt=srv3', '') + (translation ? `&tlang=${encodeURIComponent(translation)}` : '');
  return segmentsOf((await requestService(WEB, { url }, ctx)).body);
}

/** `<transcript><text start dur>…</text></transcript>`; texts are HTML-escaped twice over, tags dropped. */
function segmentsOf(xml: string): Segment[] {
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => {}, fatalError: () => {} } }).parseFromString(xml, 'text/xml');
  const nodes = doc.getElementsByTagName('text');
  const segments: Segment[] = [];
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes.item(i)!;
    const text = unescapeHtml(node.textContent ?? '').replace(/<[^>]*>/g, '');
    if (text) segments.push({ text, start: Number(node.getAttribute('start') ?? 0), duration: Number(node.getAttribute('dur') ?? 0) });
  }
  return segments;
}

function unescapeHtml(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (_m, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", '#x27': "'" })[name]!);
}
