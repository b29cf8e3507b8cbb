/**
 * ScrapeGraph's SearchScraper (the key in SGAI-APIKEY): `POST /v1/searchscraper` answers `processing` for a prompt
 * containing "slowly" (then `GET /v1/searchscraper/<id>` answers `processing` twice before `completed`), else
 * `completed` at once.
 */
import { startStandIn, type StandIn } from './service-stand-in.js';

export const SCRAPEGRAPH_KEY = 'sgai-stand-in-key';

const done = (prompt: string) => ({
  request_id: 'sg-1',
  status: 'completed',
  user_prompt: prompt,
  result: { answer: `Found about: ${prompt}` },
  reference_urls: ['https://docs.example/flows'],
  error: '',
});

export const scrapegraphStandIn = (): Promise<StandIn> => {
  let polls = 0;
  let prompt = '';
  return startStandIn({
    key: SCRAPEGRAPH_KEY,
    keyOf: (request) => request.headers['sgai-apikey'] as string | undefined,
    routes: [
      [
        'POST',
        /^\/v1\/searchscraper$/,
        (request) => {
          prompt = request.body.user_prompt;
          polls = 0;
          return prompt.includes('slowly') ? { request_id: 'sg-1', status: 'processing', user_prompt: prompt, result: null, reference_urls: [], error: '' } : done(prompt);
        },
      ],
      ['GET', /^\/v1\/searchscraper\/sg-1$/, () => (++polls <= 2 ? { request_id: 'sg-1', status: 'processing' } : done(prompt))],
    ],
  });
};
