/** Flows whose nodes need heavy modules (or not), and a wait for a module to have loaded in this process. */
import type { LazyModule } from '../../src/components/shared/lazy-module.js';

const node = (id: string, type: string, template: Record<string, unknown> = {}) => ({ id, type: 'genericNode', data: { id, type, node: { template } } });

/** One node of `type` with these template values, and nothing else. */
export function oneNodeFlow(name: string, type: string, values: Record<string, unknown> = {}) {
  const template = Object.fromEntries(Object.entries(values).map(([field, value]) => [field, { value }]));
  return { name, data: { nodes: [node(`${type}-1`, type, template)], edges: [] } };
}

/** Resolves once `module` has loaded (a module loads once per process), rejects after `ms`. */
export async function loaded(module: LazyModule<unknown>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (module.peek() === undefined) {
    if (Date.now() > until) throw new Error('the module did not load');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
