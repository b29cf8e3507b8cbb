/**
 * Which instances share the store, told by a PostgreSQL advisory lock each holds (shared) on a connection of its own
 * for as long as it runs. An opening instance first tries the lock exclusively: it gets it only when no other holds
 * it, i.e. it is the only instance alive, and the runs the database says are unfinished were left by stopped
 * processes (start-up recovery is then its to do). It then holds the lock shared, taken before the exclusive one is
 * let go, so an instance opening meanwhile never also finds itself alone.
 *
 * If that connection is cut (a database restart), the lock goes with it until this instance restarts: another
 * instance opening then may take itself for the only one.
 */
import pg from 'pg';

/** The advisory lock's first key (the second is the schema's hash). */
const LIVE_CLASS = 0x6c697665; // 'live'

export interface InstanceLock {
  /** No other instance held the lock when this one took it. */
  alone: boolean;
  release(): Promise<void>;
}

export async function holdInstanceLock(url: string, schema: string, onError: (error: Error) => void): Promise<InstanceLock> {
  const client = new pg.Client({ connectionString: url, application_name: 'flowsvc instance lock', connectionTimeoutMillis: 10_000 });
  // Without a listener, the connection's failure would end the process. A cut connection reports twice (the
  // server's error, then the socket's end): one lost connection is one report, as the pool's are.
  let reported = false;
  client.on('error', (error) => {
    if (reported) return;
    reported = true;
    onError(error);
  });
  await client.connect();
  const key = [LIVE_CLASS, schema];
  const { rows } = await client.query<{ alone: boolean }>('SELECT pg_try_advisory_lock($1, hashtext($2)) AS alone', key);
  const alone = rows[0].alone;
  // Waits, when another instance holds it exclusively, until that one holds it shared in turn.
  await client.query('SELECT pg_advisory_lock_shared($1, hashtext($2))', key);
  if (alone) await client.query('SELECT pg_advisory_unlock($1, hashtext($2))', key);
  return { alone, release: () => client.end() };
}
