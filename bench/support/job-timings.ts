/**
 * What the cluster bench times on v2 background jobs, each measure given the instances of one setup (the embedded
 * service is a setup of one): jobs/s of a burst, submit-to-in_progress, a token's arrival at the owner's watcher
 * against another instance's, a long log's catch-up read, and the time from killing an owner to its job ended.
 */
import type { ServerProcess } from './processes.js';
import { shapedPrompt } from './paced-model-server.js';
import type { ServiceCluster } from './service-cluster.js';
import { followJob, isTerminal, jobStatus, submitJob, untilAllTerminal } from './v2-jobs.js';

/** Submissions kept in flight during a burst (the jobs themselves queue behind them). */
const SUBMITTING = 16;

/**
 * `count` echo jobs submitted round-robin over `urls`, each in a session of its own (independent jobs: one shared
 * session would serialise their message appends across instances), timed from the first submit until all read
 * terminal.
 */
export async function jobsPerSecond(urls: string[], flowId: string, count: number): Promise<number> {
  const started = performance.now();
  const ids: string[] = new Array(count);
  let next = 0;
  const submitter = async () => {
    while (next < count) {
      const i = next++;
      ids[i] = await submitJob(urls[i % urls.length], flowId, `burst ${i}`, `burst-${i}`);
    }
  };
  await Promise.all(Array.from({ length: SUBMITTING }, submitter));
  await untilAllTerminal(urls[0], ids);
  return count / ((performance.now() - started) / 1000);
}

/**
 * Milliseconds from sending the submit (the bench's wall clock) to the job's `in_progress` status (the service's
 * timestamp on it, ms resolution: the same machine's clock) of `count` echo jobs one after another, round-robin
 * over `urls`, each followed to its end before the next: the latency of an idle queue, not of a backlog.
 */
export async function enqueueToStart(urls: string[], flowId: string, count: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const url = urls[i % urls.length];
    // Date.now, not timeOrigin + performance.now: the monotonic clock drifts from the wall clock by milliseconds.
    const sent = Date.now();
    const id = await submitJob(url, flowId, `latency ${i}`, `latency-${i}`);
    const events = await followJob(url, id);
    const started = events.find((event) => event.status === 'in_progress');
    if (!started?.timestamp) throw new Error(`job ${id}: no in_progress status in its log`);
    latencies.push(started.timestamp - sent);
  }
  return latencies;
}

/**
 * A model job of `tokens` tokens paced `everyMs` apart, watched from its owner and from another instance at once:
 * per token event, how much later the other instance delivered it (ms, the bench's clock for both).
 */
export async function crossInstanceDelays(cluster: ServiceCluster, flowId: string, tokens: number, everyMs: number): Promise<number[]> {
  // Held a second before the first token: time to find the owner and attach both watchers from the start.
  const id = await submitJob(cluster.instances[0].url, flowId, shapedPrompt({ tokens, everyMs, waitMs: 1000 }));
  const { owner, others } = await cluster.ownerOf(id);
  const [atOwner, elsewhere] = await Promise.all([followJob(owner.url, id), followJob(others[0].url, id)]);
  const arrivals = new Map(atOwner.filter((event) => event.event === 'token').map((event) => [event.id, event.at]));
  const delays = elsewhere.filter((event) => event.event === 'token' && arrivals.has(event.id)).map((event) => event.at - arrivals.get(event.id)!);
  if (delays.length < tokens * 0.9) throw new Error(`only ${delays.length} token events matched of ${tokens}`);
  return delays;
}

/** A finished model job of `tokens` unpaced tokens: its id, once it reads terminal through `url`. */
export async function longFinishedJob(url: string, flowId: string, tokens: number): Promise<string> {
  const id = await submitJob(url, flowId, shapedPrompt({ tokens, everyMs: 0, waitMs: 0 }));
  await untilAllTerminal(url, [id]);
  return id;
}

/**
 * A model job of `tokens` unpaced tokens whose reply is then held `holdMs` open: returned once its owner has
 * logged every token, so its whole log is written while the job still runs.
 */
export async function longRunningJob(cluster: ServiceCluster, flowId: string, tokens: number, holdMs: number) {
  const id = await submitJob(cluster.instances[0].url, flowId, shapedPrompt({ tokens, everyMs: 0, waitMs: 0, holdMs }));
  const { owner, others } = await cluster.ownerOf(id);
  await followJob(owner.url, id, 0, tokens);
  return { id, owner, others };
}

/**
 * Milliseconds to read a job's log from `sequence_id=0` to its end, or to its `tokens`th token event for a job
 * still running, and how many events were read.
 */
export async function catchUp(url: string, jobId: string, tokens?: number): Promise<{ ms: number; events: number }> {
  const started = performance.now();
  const events = await followJob(url, jobId, 0, tokens);
  return { ms: performance.now() - started, events: events.length };
}

/**
 * Starts a paced model job, waits until its owner runs it, kills the owner (SIGKILL) and times, from the kill,
 * how long until another instance reports the job terminal (polled every 10 ms). Restarts an instance after, so
 * the cluster keeps its size for the next round.
 */
export async function recoveryAfterKill(cluster: ServiceCluster, flowId: string): Promise<{ ms: number; status: string }> {
  const id = await submitJob(cluster.instances[0].url, flowId, shapedPrompt({ tokens: 2000, everyMs: 5, waitMs: 0 }));
  const { owner, others } = await cluster.ownerOf(id);
  // Into its run, so the job has a log on the owner when it dies.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const killed = performance.now();
  await owner.stop();
  const survivor: ServerProcess = others[0];
  let status = await jobStatus(survivor.url, id);
  while (!isTerminal(status)) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    status = await jobStatus(survivor.url, id);
  }
  const ms = performance.now() - killed;
  cluster.instances.splice(cluster.instances.indexOf(owner), 1);
  await cluster.another();
  return { ms, status };
}
