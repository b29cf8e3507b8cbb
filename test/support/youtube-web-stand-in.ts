/**
 * YouTube's web endpoints as YouTube Transcripts reads them: the watch page (with its Innertube key), the player
 * endpoint (caption tracks; video "nocaps" has none, "private" is not playable) and the timed-text track, whose
 * URL points back at the stand-in as YouTube's own point at www.youtube.com.
 */
import { sendJson, startServiceStandIn, type ServiceStandIn, type StandInRoute } from './service-stand-in.js';

export const CAPTIONS = [
  { start: 0, dur: 2.5, text: 'Welcome &amp; hello' },
  { start: 30, dur: 3, text: 'to the <b>show</b>' },
  { start: 75.4, dur: 2, text: 'goodbye' },
];

export async function startYoutubeWebStandIn(): Promise<ServiceStandIn> {
  const standIn: ServiceStandIn = await startServiceStandIn(youtubeWebRoutes(() => standIn.url));
  return standIn;
}

/** The routes alone; caption tracks point at `ownUrl()`, as YouTube's own point at www.youtube.com. */
export function youtubeWebRoutes(ownUrl: () => string): Record<string, StandInRoute> {
  return {
    'GET /watch': (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html><script>ytcfg.set({"INNERTUBE_API_KEY": "inner-key-1"});</script></html>'),
    'POST /youtubei/v1/player': (req, res) => {
      if (req.query.get('key') !== 'inner-key-1') return sendJson(res, 403, { error: { message: 'bad key' } });
      const { videoId } = req.json();
      if (videoId === 'private') return sendJson(res, 200, { playabilityStatus: { status: 'LOGIN_REQUIRED', reason: 'This video is private' } });
      const tracks = videoId === 'nocaps' ? undefined : { captionTracks: [
        { baseUrl: `${ownUrl()}/api/timedtext?v=${videoId}&lang=de&fmt=srv3`, languageCode: 'de' },
        { baseUrl: `${ownUrl()}/api/timedtext?v=${videoId}&lang=en&kind=asr&fmt=srv3`, languageCode: 'en', kind: 'asr' },
      ] };
      sendJson(res, 200, { playabilityStatus: { status: 'OK' }, ...(tracks ? { captions: { playerCaptionsTracklistRenderer: tracks } } : {}) });
    },
    'GET /api/timedtext': (req, res) => {
      const prefix = req.query.get('tlang') ? `[${req.query.get('tlang')}] ` : '';
      const body = CAPTIONS.map((c) => `<text start="${c.start}" dur="${c.dur}">${prefix}${c.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</text>`).join('');
      res.writeHead(200, { 'content-type': 'text/xml' }).end(`<?xml version="1.0" encoding="utf-8" ?><transcript>${body}</transcript>`);
    },
  };
}
