/**
 * The PostgreSQL store against the embedded LMDB one, in the same run: store-level throughput (message appends,
 * job puts, flow reads on the run path, session reads) in this process, then the echo flow over HTTP on a service
 * of each. Message appends are also measured without the per-turn batch (one statement per put, the same number in
 * flight), which is what the batch is for. Skipped, with a line saying so, when no PostgreSQL answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { openLmdbStore } from '../../src/store/lmdb/lmdb-store.js';
import { openPgStore } from '../../src/store/pg/pg-store.js';
import type { Store } from '../../src/store/port.js';
import { load } from '../support/load.js';
import { echoFlow } from '../support/flows.js';
import { postgresReachable, throwawayDatabase } from '../support/postgres.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, RUN_BODY } from '../support/runs.js';
import { flowRecord, jobRecord, messageRecord } from '../support/store-records.js';

/** Operations kept in flight at once (about what 64 concurrent runs ask of the store). */
const IN_FLIGHT = 64;
const WRITES = 5000;
const READS = 5000;
const SESSIONS = 50;

/** Operations per second: `count` calls of `op`, `IN_FLIGHT` at a time. */
async function throughput(count: number, op: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < count) await op(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return count / ((performance.now() - started) / 1000);
}

interface StoreFigures {
  appends: number;
  jobPuts: number;
  flowReads: number;
  sessionReads: number;
}

async function measureStore(store: Store): Promise<StoreFigures> {
  const appends = await throughput(WRITES, (i) => store.messages.put(messageRecord(i % SESSIONS, i)));
  const jobPuts = await throughput(WRITES, (i) => store.jobs.put(jobRecord(i)));
  const flows = await Promise.all(Array.from({ length: 20 }, (_, i) => store.flows.insert(flowRecord(i))));
  const flowReads = await throughput(READS, (i) => store.flows.getShared(flows[i % flows.length].id));
  const sessionReads = await throughput(READS, (i) => store.messages.session('bench-flow', `s${i % SESSIONS}`, { limit: 50, newestFirst: true }));
  return { appends, jobPuts, flowReads, sessionReads };
}

/** Appends as one statement each (no per-turn batch), with as many in flight: what batching saves. */
async function unbatchedAppends(url: string): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  try {
    return await throughput(WRITES, (i) => {
      const m = messageRecord(i % SESSIONS, i);
      return pool.query('SELECT append_messages($1, $2, $3, $4, $5::json[])', [[m.id], [m.flow_id], [m.session_id], [m.seq], [JSON.stringify(m)]]);
    });
  } finally {
    await pool.end();
  }
}

/** Rounds of the echo load, alternating between the two services: drift on a shared machine falls on both. */
const ECHO_ROUNDS = 2;

interface EchoFigures {
  rps: number;
  p99: number;
}

/**
 * The echo flow on a service of each store, `body` being the run request (`%n` made unique per request when
 * `uniqueBodies`): mean req/s and p99 over alternating rounds, LMDB then PostgreSQL.
 */
async function echoOnBoth(databaseUrl: string, body: string, seconds: number, uniqueBodies: boolean): Promise<[EchoFigures, EchoFigures]> {
  const services = [await startService(), await startService({ FLOWSVC_DATABASE_URL: databaseUrl })];
  try {
    const urls = await Promise.all(services.map(async (service) => `${service.url}/api/v1/run/${await createFlow(service.url, echoFlow('bench echo'))}`));
    const sums = urls.map(() => ({ rps: 0, p99: 0 }));
    for (let round = 0; round < ECHO_ROUNDS; round++) {
      for (const [i, url] of urls.entries()) {
        const result = await load({ url, method: 'POST', headers: { 'x-api-key': BENCH_API_KEY }, body, uniqueBodies, seconds, warmupSeconds: round === 0 ? 2 : 0 });
        sums[i].rps += result.rps / ECHO_ROUNDS;
        sums[i].p99 += result.p99 / ECHO_ROUNDS;
      }
    }
    return [sums[0], sums[1]];
  } finally {
    await Promise.all(services.map((service) => service.stop()));
  }
}

export async function storePgScenario(seconds: number): Promise<Row[]> {
  if (!(await postgresReachable())) {
    console.error('store-pg: no PostgreSQL answers (FLOWSVC_BENCH_DATABASE_URL): skipped');
    return [];
  }
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-store-'));
  const database = await throwawayDatabase();
  try {
    const lmdb = openLmdbStore(dir);
    const onLmdb = await measureStore(lmdb);
    await lmdb.close();
    const postgres = await openPgStore({ url: database.url });
    const onPg = await measureStore(postgres);
    await postgres.close();
    const unbatched = await unbatchedAppends(database.url);

    const perRequestSession = RUN_BODY.replace('"bench"', '"bench-%n"');
    const [lmdbEcho, pgEcho] = await echoOnBoth(database.url, RUN_BODY, seconds, false);
    const [lmdbSpread, pgSpread] = await echoOnBoth(database.url, perRequestSession, seconds, true);

    const base = { scenario: 'store-pg', baselineName: 'LMDB, same run' };
    const vs = (measure: string, value: number, baseline: number, unit = 'ops/s'): Row => ({ ...base, measure, value, unit, baseline, ratio: value / baseline });
    return [
      vs(`message appends/s (${IN_FLIGHT} in flight, ${SESSIONS} sessions)`, onPg.appends, onLmdb.appends),
      { ...vs('message appends/s, one statement per put', unbatched, onPg.appends), baselineName: 'PostgreSQL with the per-turn batch' },
      vs(`job puts/s (${IN_FLIGHT} in flight)`, onPg.jobPuts, onLmdb.jobPuts),
      vs('flow getShared/s (the run path)', onPg.flowReads, onLmdb.flowReads),
      vs('session reads/s (newest 50)', onPg.sessionReads, onLmdb.sessionReads),
      vs(`echo flow req/s (50 conns, one session, mean of ${ECHO_ROUNDS} alternating rounds)`, pgEcho.rps, lmdbEcho.rps, 'req/s'),
      vs('echo flow p99 (one session)', pgEcho.p99, lmdbEcho.p99, 'ms'),
      vs(`echo flow req/s (50 conns, a session per request, mean of ${ECHO_ROUNDS} alternating rounds)`, pgSpread.rps, lmdbSpread.rps, 'req/s'),
      vs('echo flow p99 (a session per request)', pgSpread.p99, lmdbSpread.p99, 'ms'),
    ];
  } finally {
    await database.drop();
    rmSync(dir, { recursive: true, force: true });
  }
}
