/**
 * Yahoo! Finance's web API as the Yahoo! Finance component calls it: the search endpoint (news), the chart
 * endpoint (meta and events), and quoteSummary behind a session cookie (set by GET /) and its crumb
 * (GET /v1/test/getcrumb); quoteSummary without both answers 401 as Yahoo does.
 */
import { sendJson, startServiceStandIn, type ServiceStandIn } from './service-stand-in.js';

const CRUMB = 'crumb-7';

export async function startYfinanceStandIn(): Promise<ServiceStandIn> {
  return startServiceStandIn({
    'GET /': (_req, res) => void res.writeHead(404, { 'set-cookie': 'A3=session-1; Domain=.yahoo.com; Path=/' }).end(),
    'GET /v1/test/getcrumb': (req, res) => (req.headers.cookie === 'A3=session-1' ? void res.writeHead(200, { 'content-type': 'text/plain' }).end(CRUMB) : sendJson(res, 401, { error: 'Invalid Cookie' })),
    'GET /v1/finance/search': (req, res) => {
      const symbol = req.query.get('q');
      const count = Number(req.query.get('newsCount'));
      sendJson(res, 200, { news: Array.from({ length: count + 2 }, (_, i) => ({ uuid: `n${i}`, title: `${symbol} news ${i + 1}`, publisher: 'Wire', link: `https://news.test/${symbol}/${i + 1}`, providerPublishTime: 1_700_000_000 + i })) });
    },
    'GET /v8/finance/chart/:symbol': (req, res, { symbol }) =>
      sendJson(res, 200, { chart: { result: [{ meta: { symbol, currency: 'USD', regularMarketPrice: 123.4 }, events: { dividends: { '1700000000': { amount: 0.24, date: 1_700_000_000 } }, splits: { '1600000000': { numerator: 4, denominator: 1, splitRatio: '4:1', date: 1_600_000_000 } } } }], error: null } }),
    'GET /v10/finance/quoteSummary/:symbol': (req, res, { symbol }) => {
      if (req.headers.cookie !== 'A3=session-1' || req.query.get('crumb') !== CRUMB) return sendJson(res, 401, { finance: { error: { code: 'Unauthorized', description: 'Invalid Crumb' } } });
      const modules = (req.query.get('modules') ?? '').split(',');
      const result: Record<string, unknown> = {};
      for (const module of modules) result[module] = module === 'price' ? { symbol, longName: `${symbol} Inc.` } : { module, symbol };
      sendJson(res, 200, { quoteSummary: { result: [result], error: null } });
    },
  });
}
