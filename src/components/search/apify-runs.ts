/**
 * Running an Apify Actor over Apify's API v2, as the Python ApifyClient does for Langflow's component: start the
 * run (`POST /v2/acts/<actor>/runs`), poll it with backoff until it ends, then read its default dataset's items.
 * A run the flow no longer waits for (cancelled, or past the job timeout) is aborted at Apify, so that it does not
 * go on spending the user's credits.
 */
import { ComponentError } from '../component.error.js';
import type { ComponentContext } from '../contract.js';
import { pollWithBackoff } from '../services/backoff-poll.js';
import type { KeyedServiceInfo } from '../services/service-endpoint.js';
import { callService } from '../services/service-fetch.js';

export const APIFY: KeyedServiceInfo = { name: 'Apify', setting: 'APIFY', defaultBaseUrl: 'https://api.apify.com', keyVariable: 'APIFY_API_TOKEN' };

type Ctx = Pick<ComponentContext, 'signal' | 'network'>;
interface ApifyRun {
  id: string;
  status: string;
  statusMessage?: string;
  defaultDatasetId?: string;
}

const FAILED = new Set(['FAILED', 'ABORTED', 'TIMED-OUT']);
/** `apify/website-content-crawler` is `apify~website-content-crawler` in a path. */
export const actorPath = (actorId: string) => encodeURIComponent(actorId.trim().replace('/', '~'));
const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function apify<T>(token: string, path: string, ctx: Ctx, request: { json?: unknown; query?: Record<string, string | number | boolean> } = {}): Promise<T> {
  const answer = await callService(APIFY, { path, headers: auth(token), ...request }, ctx);
  return ((answer as { data?: T }).data ?? answer) as T;
}

/** The dataset items of one finished run of `actorId` with `input`. */
export async function runActor(token: string, actorId: string, input: unknown, ctx: Ctx): Promise<Record<string, unknown>[]> {
  const started = await apify<ApifyRun>(token, `/v2/acts/${actorPath(actorId)}/runs`, ctx, { json: input ?? {}, query: { waitForFinish: 1 } });
  if (!started?.id) throw new ComponentError(`Apify did not start a run of ${actorId}: its answer has no run id`);
  let finished: ApifyRun;
  try {
    finished = await pollWithBackoff(
      async () => {
        const run = await apify<ApifyRun>(token, `/v2/actor-runs/${encodeURIComponent(started.id)}`, ctx);
        return run.status === 'SUCCEEDED' || FAILED.has(run.status) ? run : undefined;
      },
      { signal: ctx.signal, what: `The Apify run of ${actorId}` },
    );
  } catch (error) {
    await abortRun(token, started.id, ctx);
    throw error;
  }
  if (FAILED.has(finished.status)) throw new ComponentError(`The Apify run of ${actorId} ended ${finished.status}${finished.statusMessage ? `: ${finished.statusMessage}` : ''}`);
  const datasetId = finished.defaultDatasetId ?? started.defaultDatasetId;
  if (!datasetId) throw new ComponentError(`The Apify run of ${actorId} has no dataset`);
  const items = await callService(APIFY, { path: `/v2/datasets/${encodeURIComponent(datasetId)}/items`, query: { clean: true, format: 'json' }, headers: auth(token) }, ctx);
  if (!Array.isArray(items)) throw new ComponentError(`Apify answered the dataset of ${actorId} with something other than a list of items`);
  return items.filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null);
}

/** Best effort, on a signal of its own (the run's is aborted already): the run is stopped at Apify. */
async function abortRun(token: string, runId: string, ctx: Ctx): Promise<void> {
  const signal = AbortSignal.timeout(5000);
  await callService(APIFY, { method: 'POST', path: `/v2/actor-runs/${encodeURIComponent(runId)}/abort`, headers: auth(token), timeoutSeconds: 5 }, { signal, network: ctx.network }).catch(() => undefined);
}

/** The Actor's latest build: its README and input schema, for the tool's description and argument. */
export async function latestBuild(token: string, actorId: string, ctx: Ctx): Promise<{ readme: string; inputSchema: Record<string, unknown> }> {
  const actor = await apify<{ defaultRunOptions?: { build?: string }; taggedBuilds?: Record<string, { buildId?: string }> }>(token, `/v2/acts/${actorPath(actorId)}`, ctx);
  const tag = actor.defaultRunOptions?.build ?? 'latest';
  const buildId = actor.taggedBuilds?.[tag]?.buildId;
  if (!buildId) throw new ComponentError(`Actor ${actorId} has no build tagged ${tag}`);
  const build = await apify<{ readme?: string; inputSchema?: string; actorDefinition?: { readme?: string; input?: Record<string, unknown> } }>(token, `/v2/actor-builds/${encodeURIComponent(buildId)}`, ctx);
  const raw = build.inputSchema ?? build.actorDefinition?.input;
  if (!raw) throw new ComponentError('Input schema not found');
  let inputSchema: Record<string, unknown>;
  try {
    inputSchema = typeof raw === 'string' ? JSON.parse(raw) : raw;
  } catch {
    throw new ComponentError(`Actor ${actorId}'s input schema is not JSON`);
  }
  return { readme: build.readme ?? build.actorDefinition?.readme ?? '', inputSchema };
}
