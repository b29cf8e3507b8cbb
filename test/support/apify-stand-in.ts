/**
 * Apify's API v2 as the Apify Actors component uses it (the token as a Bearer token): an Actor and its latest build
 * (README, input schema), runs that report RUNNING for `pollsBeforeDone` polls and then SUCCEEDED (or never finish
 * when the input says `{"neverFinish": true}`), aborting a run, and a run's dataset items.
 */
import { startStandIn, type StandIn } from './service-stand-in.js';

export const APIFY_TOKEN = 'apify_api_stand_in_token';

export const INPUT_SCHEMA = {
  title: 'Google Search Scraper input',
  properties: { queries: { type: 'string', description: 'Search terms, one per line.', prefill: 'flows' }, maxPagesPerQuery: { type: 'integer', default: 1 } },
  required: ['queries'],
};

export interface ApifyStandIn extends StandIn {
  /** Inputs of the runs started, in order. */
  readonly inputs: unknown[];
  readonly aborted: string[];
  pollsBeforeDone: number;
}

export async function apifyStandIn(): Promise<ApifyStandIn> {
  const runs = new Map<string, { input: any; polls: number; status: string }>();
  const inputs: unknown[] = [];
  const aborted: string[] = [];
  const runOf = (id: string) => ({ id, actId: 'act-1', status: runs.get(id)!.status, defaultDatasetId: `ds-${id}` });
  const standIn = await startStandIn({
    key: APIFY_TOKEN,
    keyOf: (request) => String(request.headers.authorization ?? '').replace(/^Bearer /, ''),
    routes: [
      ['GET', /^\/v2\/acts\/([^/]+)$/, (_r, [, id]) => ({ data: { id: 'act-1', name: decodeURIComponent(id!), defaultRunOptions: { build: 'latest' }, taggedBuilds: { latest: { buildId: 'build-1' } } } })],
      ['GET', /^\/v2\/actor-builds\/build-1$/, () => ({ data: { id: 'build-1', readme: '# Google Search Scraper\n\nScrapes Google search results for the queries you give.', inputSchema: JSON.stringify(INPUT_SCHEMA) } })],
      [
        'POST',
        /^\/v2\/acts\/([^/]+)\/runs$/,
        (request) => {
          const id = `run-${runs.size + 1}`;
          inputs.push(request.body);
          runs.set(id, { input: request.body, polls: 0, status: 'RUNNING' });
          return { status: 201, json: { data: runOf(id) } };
        },
      ],
      [
        'GET',
        /^\/v2\/actor-runs\/([^/]+)$/,
        (_r, [, id]) => {
          const run = runs.get(id!);
          if (!run) return { status: 404, json: { error: { type: 'record-not-found', message: 'Actor run was not found' } } };
          if (run.status === 'RUNNING' && !run.input?.neverFinish && ++run.polls > result.pollsBeforeDone) run.status = 'SUCCEEDED';
          return { data: runOf(id!) };
        },
      ],
      [
        'POST',
        /^\/v2\/actor-runs\/([^/]+)\/abort$/,
        (_r, [, id]) => {
          aborted.push(id!);
          runs.get(id!)!.status = 'ABORTED';
          return { data: runOf(id!) };
        },
      ],
      [
        'GET',
        /^\/v2\/datasets\/ds-([^/]+)\/items$/,
        (_r, [, id]) => [
          { title: 'Flows, explained', url: 'https://docs.example/flows', meta: { lang: 'en', words: 900 }, query: runs.get(id!)?.input?.queries ?? null },
          { title: 'Running flows', url: 'https://docs.example/run', meta: { lang: 'en', words: 400 }, query: runs.get(id!)?.input?.queries ?? null },
        ],
      ],
    ],
  });
  const result: ApifyStandIn = Object.assign(standIn, { inputs, aborted, pollsBeforeDone: 2 });
  return result;
}
