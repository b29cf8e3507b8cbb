/** Flows of one node for the heavy-module tests, and a wait for a service's module warm-up to have ended. */
import type { RunningService } from '../../src/main/server.js';
import { flow, node } from './langflow-json.js';
import { within } from './within.js';

/** One node of `type` with these template values, and nothing else. */
export function oneNodeFlow(name: string, type: string, values: Record<string, unknown> = {}) {
  return flow(name, [node(`${type}-1`, type, values)], []);
}

/**
 * Resolves once the service's warm-up has walked the stored flows, checked every saved one and finished the
 * loads they started: a module not loaded by then is one no flow asked for.
 */
export function warmedUp(service: RunningService): Promise<void> {
  // The AI SDK's imports alone take seconds on a loaded machine.
  return within(service.services.moduleWarmUp.whenIdle(), 'the module warm-up ending', 30_000);
}
