/**
 * Yahoo! Finance (`YfinanceComponent`): one stock symbol's news or financial data as a Table, as Langflow's
 * yfinance-based component makes it: news as one row per article (its fields, and "title: link" as text),
 * anything else as one row holding the data printed the way Python prints it (pprint's line wrapping aside). Used as an Agent's tool in
 * the Sequential Tasks Agents starter; as a tool its failures go back to the model.
 */
import { createTable } from '../../values/table.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { choice, int, text } from '../fields.js';
import { undici } from '../shared/heavy-modules.js';
import { pyRepr, pyStr } from '../shared/python-str.js';
import { withToolMode } from '../tools/tool-mode.js';
import { YAHOO_METHODS, yahooData, yahooNews } from './yahoo-finance-api.js';

const yfinanceDefinition = defineComponent({
  type: 'YfinanceComponent',
  version: 1,
  displayName: 'Yahoo! Finance',
  description: 'Uses [yfinance](https://pypi.org/project/yfinance/) (unofficial package) to access financial data and market information from Yahoo! Finance.',
  category: 'yahoosearch',
  icon: 'trending-up',
  fields: {
    symbol: text({ displayName: 'Stock Symbol', info: 'The stock symbol to retrieve data for (e.g., AAPL, GOOG).', toolMode: true }),
    method: choice({ displayName: 'Data Method', info: 'The type of data to retrieve.', options: YAHOO_METHODS, value: 'get_news' }),
    num_news: int({ displayName: 'Number of News', info: 'The number of news articles to retrieve (only applicable for get_news).', value: 5, min: 0 }),
  },
  outputs: [{ name: 'dataframe', displayName: 'Table', types: ['DataFrame'], method: 'fetch_content_dataframe' }],
  heavyModules: () => [undici],
  async run(inputs, ctx) {
    const symbol = inputs.symbol.trim();
    if (!symbol) throw new ComponentError('Field "Stock Symbol" (symbol): no symbol given');
    if (inputs.method === 'get_news') {
      const articles = await yahooNews(symbol, inputs.num_news, ctx);
      return { dataframe: createTable(articles.map((article) => ({ ...article, text: `${String(article.title)}: ${String(article.link)}` }))) };
    }
    const printed = pythonLiteral(await yahooData(symbol, inputs.method, ctx));
    return { dataframe: createTable([{ result: printed, text: printed }]) };
  },
});

/** Python's repr of JSON data (dicts, lists, strings, True/None): what pprint prints, on one line. */
function pythonLiteral(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonLiteral).join(', ')}]`;
  if (typeof value === 'object' && value !== null) return `{${Object.entries(value).map(([key, inner]) => `${pyRepr(key)}: ${pythonLiteral(inner)}`).join(', ')}}`;
  return typeof value === 'string' ? pyRepr(value) : pyStr(value);
}

export const yfinance = withToolMode(yfinanceDefinition);
