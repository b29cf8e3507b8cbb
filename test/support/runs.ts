/**
 * The runs an engine starts from now on, for tests of runs nobody awaits: a webhook replies 202 before its run
 * ends. A test waits for those runs' outcomes (a run's outcome comes once the messages it stored are committed)
 * instead of polling the store.
 */
import type { JobOutcome } from '../../actors/job.actor.js';
import type { Engine } from '../../src/engine/engine.js';
import { within } from './within.js';

export function watchRuns(engine: Engine): { ended(): Promise<JobOutcome[]> } {
  const outcomes: Promise<JobOutcome>[] = [];
  const run = engine.run.bind(engine);
  engine.run = (spec) => {
    const handle = run(spec);
    outcomes.push(handle.outcome);
    return handle;
  };
  return {
    /** The outcomes of every run started so far, in start order, once all have ended. */
    ended: () => within(Promise.all(outcomes), `${outcomes.length} background run(s) ending`),
  };
}
