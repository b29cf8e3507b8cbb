/** Flows of one node for the heavy-module tests, and a wait for a module to have loaded in this process. */
import { setTimeout as sleep } from 'node:timers/promises';
import type { LazyModule } from '../../src/components/shared/lazy-module.js';
import { flow, node } from './langflow-json.js';

/** One node of `type` with these template values, and nothing else. */
export function oneNodeFlow(name: string, type: string, values: Record<string, unknown> = {}) {
  return flow(name, [node(`${type}-1`, type, values)], []);
}

/** Resolves once `module` has loaded (a module loads once per process), rejects after `ms`. */
export async function loaded(module: LazyModule<unknown>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (module.peek() === undefined) {
    if (Date.now() > until) throw new Error('the module did not load');
    await sleep(20);
  }
}
