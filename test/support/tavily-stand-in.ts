/** Tavily's `POST /search` (the key in the body's `api_key`), answering a fixed search for any query. */
import { startStandIn, type StandIn } from './service-stand-in.js';

export const TAVILY_KEY = 'tvly-stand-in-key';

export const tavilyStandIn = (): Promise<StandIn> =>
  startStandIn({
    key: TAVILY_KEY,
    keyOf: (request) => request.body?.api_key,
    routes: [
      [
        'POST',
        /^\/search$/,
        (request) => ({
          query: request.body.query,
          answer: `Flows are graphs of components (about ${request.body.query}).`,
          images: ['https://images.example/flow.png'],
          results: [
            { title: 'What is a flow', url: 'https://docs.example/flows', content: 'A flow connects components.', score: 0.91, raw_content: null },
            { title: 'Running flows', url: 'https://docs.example/run', content: 'Run a flow through the API.', score: 0.82, raw_content: null },
          ],
          response_time: 0.4,
        }),
      ],
    ],
  });
