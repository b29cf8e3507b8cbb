/**
 * Yahoo! Finance's web API as the yfinance package reads it: news from the search endpoint, prices and corporate
 * actions from the chart endpoint, everything else from quoteSummary modules, which want a session cookie and its
 * "crumb" (fetched first, as yfinance does). FLOWSVC_YFINANCE_BASE_URL replaces query2.finance.yahoo.com, and then
 * the cookie is asked of that same address, so one gateway or stand-in serves all of it.
 */
import type { ComponentContext } from '../contract.js';
import { endpointOf, type ServiceInfo } from './service-endpoint.js';
import { ServiceError } from './service-failure.js';
import { callService, requestService } from './service-fetch.js';

export const YFINANCE: ServiceInfo = { name: 'Yahoo! Finance', setting: 'YFINANCE', defaultBaseUrl: 'https://query2.finance.yahoo.com' };
const COOKIE_URL = 'https://fc.yahoo.com';
const NAME = YFINANCE.name;

/** quoteSummary modules per method (yfinance's Ticker properties read these). */
const MODULES: Record<string, string> = {
  get_info: 'assetProfile,summaryDetail,financialData,defaultKeyStatistics,quoteType,price',
  get_analysis: 'earningsTrend',
  get_balance_sheet: 'balanceSheetHistory',
  get_calendar: 'calendarEvents',
  get_cashflow: 'cashflowStatementHistory',
  get_institutional_holders: 'institutionOwnership',
  get_recommendations: 'recommendationTrend',
  get_recommendations_summary: 'recommendationTrend',
  get_sustainability: 'esgScores',
  get_major_holders: 'majorHoldersBreakdown',
  get_mutualfund_holders: 'fundOwnership',
  get_insider_purchases: 'netSharePurchaseActivity',
  get_insider_transactions: 'insiderTransactions',
  get_insider_roster_holders: 'insiderHolders',
  get_shares: 'defaultKeyStatistics',
  get_sec_filings: 'secFilings',
  get_upgrades_downgrades: 'upgradeDowngradeHistory',
  get_earnings: 'earnings',
  get_income_stmt: 'incomeStatementHistory',
};
/** Chart events per method; get_fast_info reads the chart's meta. */
const EVENTS: Record<string, string> = { get_dividends: 'dividends', get_splits: 'splits', get_capital_gains: 'capitalGains', get_actions: 'dividends,splits' };

export const YAHOO_METHODS = ['get_info', 'get_news', 'get_actions', 'get_analysis', 'get_balance_sheet', 'get_calendar', 'get_cashflow', 'get_institutional_holders', 'get_recommendations', 'get_sustainability', 'get_major_holders', 'get_mutualfund_holders', 'get_insider_purchases', 'get_insider_transactions', 'get_insider_roster_holders', 'get_dividends', 'get_capital_gains', 'get_splits', 'get_shares', 'get_fast_info', 'get_sec_filings', 'get_recommendations_summary', 'get_upgrades_downgrades', 'get_earnings', 'get_income_stmt'] as const;

export async function yahooNews(symbol: string, count: number, ctx: ComponentContext): Promise<Record<string, unknown>[]> {
  const body = (await callService(YFINANCE, { path: `/v1/finance/search?q=${encodeURIComponent(symbol)}&quotesCount=0&newsCount=${count}` }, ctx)) as { news?: unknown };
  if (!Array.isArray(body.news)) throw new ServiceError(`${NAME} answered the news search without a "news" list`);
  return body.news.slice(0, count) as Record<string, unknown>[];
}

/** What the method returns, as one value (an object or a list). */
export async function yahooData(symbol: string, method: string, ctx: ComponentContext): Promise<unknown> {
  if (method === 'get_fast_info' || EVENTS[method]) return chartData(symbol, method, ctx);
  const modules = MODULES[method];
  if (!modules) throw new ServiceError(`${NAME}: no such data method ${method}`);
  const { cookie, crumb } = await session(ctx);
  const path = `/v10/finance/quoteSummary/${encodeURIComponent(symbol)}?modules=${modules}&crumb=${encodeURIComponent(crumb)}`;
  const body = (await callService(YFINANCE, { path, headers: { cookie } }, ctx)) as { quoteSummary?: { result?: Record<string, unknown>[]; error?: unknown } };
  const [result] = body.quoteSummary?.result ?? [];
  if (!result) throw new ServiceError(`${NAME} has no ${method.slice(4)} for ${symbol}`);
  // get_info is one flat dictionary in yfinance; the other modules keep their own shape.
  return method === 'get_info' ? Object.assign({}, ...Object.values(result).map((part) => (typeof part === 'object' && part !== null ? part : {}))) : Object.values(result)[0];
}

async function chartData(symbol: string, method: string, ctx: ComponentContext): Promise<unknown> {
  const events = EVENTS[method];
  const query = events ? `range=max&interval=1d&events=${events.replace(',', '%7C')}` : 'range=1d&interval=1d';
  const body = (await callService(YFINANCE, { path: `/v8/finance/chart/${encodeURIComponent(symbol)}?${query}` }, ctx)) as { chart?: { result?: { meta?: unknown; events?: Record<string, unknown> }[] } };
  const [chart] = body.chart?.result ?? [];
  if (!chart) throw new ServiceError(`${NAME} has no chart for ${symbol}`);
  if (!events) return chart.meta ?? {};
  const picked = events.split(',').map((name) => [name, Object.values((chart.events?.[name] as Record<string, unknown>) ?? {})] as const);
  return picked.length === 1 ? picked[0]![1] : Object.fromEntries(picked);
}

/** A session cookie and its crumb, as yfinance gets them before quoteSummary calls. */
async function session(ctx: ComponentContext): Promise<{ cookie: string; crumb: string }> {
  // Yahoo's own cookie host unless the operator set an address (which then serves the cookie too).
  const first = await requestService(YFINANCE, endpointOf(YFINANCE).configured ? { path: '/', anyStatus: true } : { url: COOKIE_URL, anyStatus: true }, ctx);
  const cookie = first.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  if (!cookie) throw new ServiceError(`${NAME} gave no session cookie`);
  const crumb = (await requestService(YFINANCE, { path: '/v1/test/getcrumb', headers: { cookie } }, ctx)).body.trim();
  if (!crumb || crumb.includes('<')) throw new ServiceError(`${NAME} gave no crumb for its session`);
  return { cookie, crumb };
}
