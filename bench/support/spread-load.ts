/**
 * One load spread over several instances, as a round-robin balancer would spread it: a load generator per
 * instance, all at once, the connections split evenly between them. Their requests/s add up; the p50 and p99 are
 * the worst instance's (a balanced client waits on the slowest).
 */
import { load, type LoadResult, type LoadSpec } from './load.js';

/** `spec` (its `url` a path, here joined to each base URL) on every one of `baseUrls` at once. */
export async function spreadLoad(baseUrls: string[], spec: LoadSpec): Promise<Pick<LoadResult, 'rps' | 'p50' | 'p99'>> {
  const connections = Math.ceil((spec.connections ?? 50) / baseUrls.length);
  const results = await Promise.all(baseUrls.map((base) => load({ ...spec, url: `${base}${spec.url}`, connections })));
  return {
    rps: results.reduce((sum, result) => sum + result.rps, 0),
    p50: Math.max(...results.map((result) => result.p50)),
    p99: Math.max(...results.map((result) => result.p99)),
  };
}
