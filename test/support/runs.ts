/**
 * Waits for background runs nobody awaits (a webhook replies 202 before its run ends) to end, through the run
 * lifecycle the test's service runs them on, instead of polling the store. A run's answer settles once its record
 * is stored, and only after the messages it stored are committed.
 */
import type { TestServer } from './server.js';
import { within } from './within.js';

/** The final statuses of these jobs, in order, once all have ended. */
export async function jobsEnded(server: TestServer, jobIds: readonly string[]): Promise<string[]> {
  const live = jobIds.map((id) => server.services.runs.find(id)?.answer);
  await within(Promise.all(live), `${jobIds.length} background run(s) ending`);
  return Promise.all(jobIds.map(async (id) => (await server.services.store.jobs.get(id))!.status));
}
