/** The records of what ran, assembled: the recorder that follows runs (unless turned off), the service, retention. */
import type { Config } from '../../config.js';
import type { Logger } from '../../logger.js';
import { LogRetention } from '../../runs/log-retention.js';
import type { Store } from '../../store/port.js';
import type { FlowsService } from '../flows.service.js';
import { RunRecorder } from './run-recorder.js';
import { RunRecordsService } from './run-records.service.js';

const DAY_MS = 86_400_000;

export interface RunRecords {
  /** Follows runs; absent when FLOWSVC_TRACES_ENABLED is off. */
  recorder: RunRecorder | undefined;
  service: RunRecordsService;
  retention: LogRetention;
  /** Writes what runs ended so far and stops the retention sweep; before the store closes. */
  close(): Promise<void>;
}

export function setUpRunRecords(config: Config, store: Store, flows: FlowsService, logger: Logger): RunRecords {
  const retention = new LogRetention(config.TRACE_RETENTION_DAYS * DAY_MS, (now) => store.runRecords.expire(now), logger);
  const recorder = config.TRACES_ENABLED ? new RunRecorder(store.runRecords, () => retention.expiresAt(), logger) : undefined;
  return {
    recorder,
    service: new RunRecordsService(store.runRecords, flows, recorder, retention),
    retention,
    async close() {
      retention.close();
      await recorder?.settled();
    },
  };
}
