/**
 * Several instances sharing runs (PostgreSQL + NATS JetStream) against the embedded single process (LMDB, no
 * cluster settings), in the same run: echo-flow runs/s on 1 and on 3 instances (on 3, a load generator per
 * instance at once, the 50 connections split between them, as a round-robin balancer would), in one session and in a
 * session per request; v2 background jobs/s of a burst; submit-to-in_progress latency of an idle queue; how much
 * later another instance delivers a job's token events than the job's owner (tokens 5 ms apart); the read of a
 * 10,000-event log from sequence 0 on a non-owner while the job runs (JetStream) and after it ended (the stored log,
 * in PostgreSQL) against the embedded service's stored-log replay; and, on a cluster with a 2 s lease, the time from
 * `kill -9` of a job's owner to another instance reporting the job ended; the time per turn of a chat whose flow
 * reads its history, one instance and round-robin over three. Setups alternate round by round where a
 * measure repeats. Skipped, with a line saying so, when PostgreSQL or NATS does not answer.
 */
import { echoFlow, memoryFlow } from '../support/flows.js';
import { catchUp, crossInstanceDelays, enqueueToStart, jobsPerSecond, longFinishedJob, longRunningJob, recoveryAfterKill } from '../support/job-timings.js';
import { modelStreamFlow } from '../support/model-flow.js';
import { startPacedModelServer } from '../support/paced-model-server.js';
import { postgresReachable } from '../support/postgres.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, median, RUN_BODY, runOnce } from '../support/runs.js';
import { natsReachable, startServiceCluster, type ServiceCluster } from '../support/service-cluster.js';
import { spreadLoad } from '../support/spread-load.js';
import { quantile, untilAllTerminal } from '../support/v2-jobs.js';

/** Rounds per setup of each echo load, alternating between setups so drift falls on all of them. */
const ECHO_ROUNDS = 2;
/** Jobs one after another per setup: enough for a p99 that is not just the slowest one. */
const LATENCY_JOBS = 100;
/** A paced reply of 2 s: 400 token events to pair between the two watchers. */
const PACED_TOKENS = 400;
const TOKEN_EVERY_MS = 5;
/** About 10,000 events in the job's log (a few status and message events besides the tokens). */
const LONG_LOG_TOKENS = 10_000;
const CATCH_UP_ROUNDS = 3;
/** Long enough for two reads of the whole log while the job still runs. */
const LONG_LOG_HOLD_MS = 4000;
/** Short, so a kill is recovered in seconds; the recovery figure is read against it. */
const LEASE_SECONDS = 2;
const KILLS = 3;
/** Turns of one chat session per round whose flow reads its last 20 messages (Memory). */
const HISTORY_TURNS = 300;

interface Setup {
  name: string;
  urls: string[];
  echoFlowId: string;
  modelFlowId: string;
  memoryFlowId: string;
}

async function setupOf(name: string, urls: string[]): Promise<Setup> {
  return {
    name,
    urls,
    echoFlowId: await createFlow(urls[0], echoFlow(`bench ${name} echo`)),
    modelFlowId: await createFlow(urls[0], modelStreamFlow(`bench ${name} model`)),
    memoryFlowId: await createFlow(urls[0], memoryFlow(`bench ${name} memory`, 20)),
  };
}

/** Each setup's figures from alternating rounds, averaged. */
async function alternating<T extends Record<string, number>>(setups: Setup[], rounds: number, measure: (setup: Setup, round: number) => Promise<T>): Promise<T[]> {
  const sums: Record<string, number>[] = setups.map(() => ({}));
  for (let round = 0; round < rounds; round++) {
    for (const [i, setup] of setups.entries()) {
      for (const [key, value] of Object.entries(await measure(setup, round))) sums[i][key] = (sums[i][key] ?? 0) + value / rounds;
    }
  }
  return sums as T[];
}

/** Echo runs/s and p99 of every setup, alternating rounds; `%n` in `body` made unique per request when `unique`. */
function echoLoads(setups: Setup[], seconds: number, body: string, unique: boolean) {
  return alternating(setups, ECHO_ROUNDS, async (setup, round) => {
    const spec = { url: `/api/v1/run/${setup.echoFlowId}`, method: 'POST' as const, headers: { 'x-api-key': BENCH_API_KEY }, body, uniqueBodies: unique, seconds, warmupSeconds: round === 0 ? 2 : 0 };
    const { rps, p99 } = await spreadLoad(setup.urls, spec);
    return { rps, p99 };
  });
}

/**
 * Milliseconds per turn of one chat session whose flow reads its history, turns one after another, round-robin over
 * the setup's instances: on 3, every read follows a turn stored through another instance.
 */
async function historyTurnsMs(setup: Setup, round: number): Promise<number> {
  const body = JSON.stringify({ input_value: 'hello', session_id: `bench-history-${round}` });
  const turn = (i: number) => runOnce(`${setup.urls[i % setup.urls.length]}/api/v1/run/${setup.memoryFlowId}`, body);
  for (let i = 0; i < 30; i++) await turn(i);
  const started = performance.now();
  for (let i = 0; i < HISTORY_TURNS; i++) await turn(i);
  return (performance.now() - started) / HISTORY_TURNS;
}

/**
 * Median milliseconds of reading a 10,000-event log from sequence 0: the embedded service's finished job (stored
 * log), and on the cluster a job per round read while it runs from a non-owner and from its owner, then, ended,
 * from the non-owner again.
 */
async function catchUps(embedded: Setup, cluster: ServiceCluster, clusterModelFlow: string) {
  const finished = await longFinishedJob(embedded.urls[0], embedded.modelFlowId, LONG_LOG_TOKENS);
  const reads = { embedded: [] as number[], running: [] as number[], owner: [] as number[], ended: [] as number[] };
  let events = 0;
  for (let round = 0; round < CATCH_UP_ROUNDS; round++) {
    const { id, owner, others } = await longRunningJob(cluster, clusterModelFlow, LONG_LOG_TOKENS, LONG_LOG_HOLD_MS);
    const running = await catchUp(others[0].url, id, LONG_LOG_TOKENS);
    reads.running.push(running.ms);
    reads.owner.push((await catchUp(owner.url, id, LONG_LOG_TOKENS)).ms);
    await untilAllTerminal(owner.url, [id]);
    reads.ended.push((await catchUp(others[0].url, id)).ms);
    reads.embedded.push((await catchUp(embedded.urls[0], finished)).ms);
    events = running.events;
  }
  return { events, embedded: median(reads.embedded), running: median(reads.running), owner: median(reads.owner), ended: median(reads.ended) };
}

export async function clusterScenario(seconds: number): Promise<Row[]> {
  if (!(await postgresReachable()) || !(await natsReachable())) {
    console.error('cluster: PostgreSQL or NATS does not answer (FLOWSVC_BENCH_DATABASE_URL, FLOWSVC_BENCH_NATS_URL): skipped');
    return [];
  }
  const model = await startPacedModelServer();
  const env = { OPENAI_BASE_URL: model.baseURL };
  const clusters: ServiceCluster[] = [];
  const embedded = await startService(env);
  try {
    clusters.push(await startServiceCluster(1, env), await startServiceCluster(3, env));
    const [one, three] = clusters;
    const urlsOf = (cluster: ServiceCluster) => cluster.instances.map((instance) => instance.url);
    // In this order everywhere: the rows below index them as embedded, 1 instance, 3 instances.
    const setups = [await setupOf('embedded', [embedded.url]), await setupOf('1 instance', urlsOf(one)), await setupOf('3 instances', urlsOf(three))];

    const echo = await echoLoads(setups, seconds, RUN_BODY, false);
    const spread = await echoLoads(setups, seconds, RUN_BODY.replace('"bench"', '"bench-%n"'), true);
    const jobCount = 100 * seconds;
    const jobs = await alternating(setups, 2, async (setup) => ({ rate: await jobsPerSecond(setup.urls, setup.echoFlowId, jobCount) }));
    const latency = await alternating(setups, 1, async (setup) => {
      const values = await enqueueToStart(setup.urls, setup.echoFlowId, LATENCY_JOBS);
      return { p50: quantile(values, 0.5), p99: quantile(values, 0.99) };
    });
    const history = await alternating(setups, 2, async (setup, round) => ({ ms: await historyTurnsMs(setup, round) }));
    const delays = await crossInstanceDelays(three, setups[2].modelFlowId, PACED_TOKENS, TOKEN_EVERY_MS);
    const reads = await catchUps(setups[0], three, setups[2].modelFlowId);
    await Promise.all(clusters.splice(0).map((cluster) => cluster.stop()));

    const recoveryCluster = await startServiceCluster(3, { ...env, FLOWSVC_JOB_LEASE_SECONDS: String(LEASE_SECONDS) });
    clusters.push(recoveryCluster);
    const recoveryFlow = await createFlow(recoveryCluster.instances[0].url, modelStreamFlow('bench recovery model'));
    const recoveries: number[] = [];
    const endings = new Set<string>();
    for (let i = 0; i < KILLS; i++) {
      const { ms, status } = await recoveryAfterKill(recoveryCluster, recoveryFlow);
      recoveries.push(ms);
      endings.add(status);
    }

    const vs = (measure: string, value: number, baseline: number, unit: string): Row => ({ scenario: 'cluster', measure, value, unit, baseline, baselineName: 'embedded, same run', ratio: value / baseline });
    const plain = (measure: string, value: number, unit: string): Row => ({ scenario: 'cluster', measure, value, unit });
    const [e, c1, c3] = [0, 1, 2];
    return [
      vs(`echo flow req/s, one session, 1 instance (50 conns, mean of ${ECHO_ROUNDS} alternating rounds)`, echo[c1].rps, echo[e].rps, 'req/s'),
      vs('echo flow req/s, one session, 3 instances (a generator per instance, 17 conns each, all at once)', echo[c3].rps, echo[e].rps, 'req/s'),
      vs('echo flow p99, one session, 1 instance', echo[c1].p99, echo[e].p99, 'ms'),
      vs('echo flow p99, one session, 3 instances (worst instance)', echo[c3].p99, echo[e].p99, 'ms'),
      vs('echo flow req/s, a session per request, 1 instance', spread[c1].rps, spread[e].rps, 'req/s'),
      vs('echo flow req/s, a session per request, 3 instances', spread[c3].rps, spread[e].rps, 'req/s'),
      vs('echo flow p99, a session per request, 1 instance', spread[c1].p99, spread[e].p99, 'ms'),
      vs('echo flow p99, a session per request, 3 instances (worst instance)', spread[c3].p99, spread[e].p99, 'ms'),
      vs(`v2 background echo jobs/s, 1 instance (burst of ${jobCount}, a session per job; mean of 2 alternating rounds)`, jobs[c1].rate, jobs[e].rate, 'jobs/s'),
      vs('v2 background echo jobs/s, 3 instances (submits round-robin)', jobs[c3].rate, jobs[e].rate, 'jobs/s'),
      vs(`submit to in_progress p50, 1 instance (${LATENCY_JOBS} jobs one at a time; ms resolution)`, latency[c1].p50, latency[e].p50, 'ms'),
      vs('submit to in_progress p99, 1 instance', latency[c1].p99, latency[e].p99, 'ms'),
      vs('submit to in_progress p50, 3 instances (submits round-robin)', latency[c3].p50, latency[e].p50, 'ms'),
      vs('submit to in_progress p99, 3 instances', latency[c3].p99, latency[e].p99, 'ms'),
      vs(`Memory flow (last 20 messages) ms per turn, one session, turns one at a time, 1 instance (${HISTORY_TURNS} turns, mean of 2 alternating rounds)`, history[c1].ms, history[e].ms, 'ms'),
      vs('Memory flow ms per turn, 3 instances (turns round-robin: each read follows a turn stored through another instance)', history[c3].ms, history[e].ms, 'ms'),
      plain(`token event at another instance after the owner, p50 (${delays.length} tokens ${TOKEN_EVERY_MS} ms apart)`, quantile(delays, 0.5), 'ms'),
      plain('token event at another instance after the owner, p99', quantile(delays, 0.99), 'ms'),
      { ...vs(`read from sequence 0 to the last token, non-owner, job running (${reads.events} events; median of ${CATCH_UP_ROUNDS})`, reads.running, reads.embedded, 'ms'), baselineName: 'embedded stored-log replay' },
      { ...vs('read from sequence 0 to the last token, owner, job running', reads.owner, reads.embedded, 'ms'), baselineName: 'embedded stored-log replay' },
      { ...vs('read from sequence 0 to the end, non-owner, job ended (stored log)', reads.ended, reads.embedded, 'ms'), baselineName: 'embedded stored-log replay' },
      { ...plain(`kill -9 of the owner to its job reported ${[...endings].join('/')} elsewhere, median of ${KILLS}`, median(recoveries), 'ms'), baseline: LEASE_SECONDS * 1000, baselineName: 'the lease', ratio: median(recoveries) / (LEASE_SECONDS * 1000) },
      plain('kill -9 of the owner to its job reported ended elsewhere, worst', Math.max(...recoveries), 'ms'),
    ];
  } finally {
    await Promise.all(clusters.map((cluster) => cluster.stop()));
    await embedded.stop();
    await model.close();
  }
}
