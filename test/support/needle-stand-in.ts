/** Needle's search API as the Needle Retriever calls it: POST /api/v1/collections/:id/search with x-api-key. */
import { sendJson, startServiceStandIn, type ServiceStandIn } from './service-stand-in.js';

export const NEEDLE_KEY = 'ndl-test-key';

export interface NeedleStandIn extends ServiceStandIn {
  /** The passages each search answers with. */
  passages: string[];
}

export async function startNeedleStandIn(): Promise<NeedleStandIn> {
  const passages = { list: ['Invoice 42: 3 items, total 1200 EUR, due 2026-12-01.'] };
  const standIn = await startServiceStandIn({
    'POST /api/v1/collections/:id/search': (req, res, { id }) => {
      if (req.headers['x-api-key'] !== NEEDLE_KEY) return sendJson(res, 401, { error: { message: 'Unauthorized' } });
      const { text } = req.json();
      sendJson(res, 200, { result: passages.list.map((content, i) => ({ id: `chunk-${i}`, content: `${content} (${id}: ${text})`, file_id: `file-${i}` })) });
    },
  });
  return Object.defineProperty(standIn, 'passages', { get: () => passages.list, set: (list: string[]) => (passages.list = list) }) as NeedleStandIn;
}
