/** Writes traces as the recorder does: each prepared by the store, then put together. */
import type { TraceRecord } from '../../protocol/trace.schema.js';
import type { Store } from '../../src/store/port.js';
import { traceSourceOf } from '../../src/store/trace-row.js';

export const putTraces = (store: Pick<Store, 'runRecords'>, traces: readonly TraceRecord[], expiresAt: number): Promise<void> =>
  store.runRecords.put(
    traces.map((trace) => store.runRecords.prepare(traceSourceOf(trace))),
    expiresAt,
  );
