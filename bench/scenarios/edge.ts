/**
 * Edge overhead: the health route, flow creates (unique names, and one name renamed `Name (n)`) and a flow get
 * through the whole service (routing, auth, validation, store) against a raw uWS handler doing the least possible
 * work, measured in the same run; and node:http doing that same least work, for reference (what a service on
 * Node's own server could reach at best).
 */
import { load } from '../support/load.js';
import { BENCH_API_KEY, startRawNodeHttp, startRawUws, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';

/** `%n` becomes a per-request counter (load's `uniqueBodies`): every create gets a name of its own. */
const FLOW_BODY = JSON.stringify({
  name: 'bench %n',
  description: 'a small flow',
  data: { nodes: [{ id: 'ChatInput-a', type: 'genericNode', data: { type: 'ChatInput', id: 'ChatInput-a', node: { template: {} } } }], edges: [] },
});

export async function edgeScenario(seconds: number): Promise<Row[]> {
  const auth = { 'x-api-key': BENCH_API_KEY };
  const raw = await startRawUws();
  const rawGet = await load({ url: `${raw.url}/health`, seconds });
  const rawPost = await load({ url: `${raw.url}/echo`, method: 'POST', body: FLOW_BODY, uniqueBodies: true, seconds });
  await raw.stop();

  const node = await startRawNodeHttp();
  const nodePost = await load({ url: `${node.url}/echo`, method: 'POST', body: FLOW_BODY, uniqueBodies: true, seconds });
  await node.stop();

  const service = await startService();
  const health = await load({ url: `${service.url}/health`, seconds });
  const create = await load({ url: `${service.url}/api/v1/flows/`, method: 'POST', headers: auth, body: FLOW_BODY, uniqueBodies: true, seconds });
  // One name over and over (a UI's "New Flow"): every create after the first is renamed `Name (n)`.
  const renamed = await load({ url: `${service.url}/api/v1/flows/`, method: 'POST', headers: auth, body: FLOW_BODY.replace('%n', 'same'), seconds });
  const one = await fetch(`${service.url}/api/v1/flows/`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: FLOW_BODY.replace('%n', 'one') });
  const { id } = (await one.json()) as { id: string };
  const get = await load({ url: `${service.url}/api/v1/flows/${id}`, headers: auth, seconds });
  await service.stop();

  const row = (measure: string, result: typeof health, baseline: typeof rawGet, baselineName: string): Row[] => [
    { scenario: 'edge', measure: `${measure} req/s`, value: result.rps, unit: 'req/s', baseline: baseline.rps, baselineName, ratio: result.rps / baseline.rps },
    { scenario: 'edge', measure: `${measure} p99`, value: result.p99, unit: 'ms', baseline: baseline.p99, baselineName },
  ];
  return [
    ...row('node:http POST echo (reference)', nodePost, rawPost, 'raw uWS POST echo'),
    ...row('GET /health', health, rawGet, 'raw uWS GET'),
    ...row('POST /api/v1/flows', create, rawPost, 'raw uWS POST echo'),
    ...row('POST /api/v1/flows, one name (renamed)', renamed, rawPost, 'raw uWS POST echo'),
    ...row('GET /api/v1/flows/{id}', get, rawGet, 'raw uWS GET'),
  ];
}
