/** One structured logger (pino) for the process; children carry their area. */
import { pino, type Logger } from 'pino';
import type { Config } from './config.js';
import { LogRing } from './observability/log-ring.js';

export type { Logger };

export interface LoggerOptions {
  /** Also keeps each line in this ring (FLOWSVC_ENABLE_LOG_RETRIEVAL). */
  ring?: LogRing;
  /** Writes to stdout (default true; tests that read the ring turn it off). */
  stdout?: boolean;
}

/** The rings of the loggers made with one: the service finds its logger's lines here (createServices). */
const rings = new WeakMap<Logger, LogRing>();

export function createLogger(level: string, options: LoggerOptions = {}): Logger {
  const { ring, stdout = true } = options;
  if (!ring || level === 'silent') return pino({ level, base: { svc: 'flowsvc' } });
  const streams: pino.StreamEntry[] = [{ level: level as pino.Level, stream: ring }];
  if (stdout) streams.push({ level: level as pino.Level, stream: pino.destination(1) });
  const logger = pino({ level, base: { svc: 'flowsvc' } }, pino.multistream(streams));
  rings.set(logger, ring);
  return logger;
}

/** The service's logger as its configuration asks: with a ring of recent lines when log retrieval is on. */
export function serviceLogger(config: Pick<Config, 'LOG_LEVEL' | 'ENABLE_LOG_RETRIEVAL' | 'LOG_RETRIEVER_BUFFER_SIZE'>, stdout = true): Logger {
  const ring = config.ENABLE_LOG_RETRIEVAL ? new LogRing(config.LOG_RETRIEVER_BUFFER_SIZE) : undefined;
  return createLogger(config.LOG_LEVEL, { ring, stdout });
}

/** The ring of recent lines `logger` writes to, if it was made with one. */
export const logRingOf = (logger: Logger): LogRing | undefined => rings.get(logger);
