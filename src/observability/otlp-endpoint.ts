/**
 * Where OpenTelemetry traces go, from the standard variables: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT as it is, or
 * OTEL_EXPORTER_OTLP_ENDPOINT with `/v1/traces` added (the OTLP/HTTP convention). Unset: no export, and the
 * OpenTelemetry packages are never loaded (this file imports none of them).
 */
import type { Logger } from '../logger.js';
import type { RunWatcher } from '../runs/run-watch.js';

export function otlpTracesUrl(env: NodeJS.ProcessEnv): string | undefined {
  const traces = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim();
  if (traces) return traces;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return base ? `${base.replace(/\/+$/, '')}/v1/traces` : undefined;
}

export interface OtelExport {
  watcher: RunWatcher;
  /** Sends what is still buffered, then stops. */
  close(): Promise<void>;
}

/** The export when the environment asks for it, its packages loaded only then. */
export async function otelExportFrom(env: NodeJS.ProcessEnv, logger: Logger): Promise<OtelExport | undefined> {
  const url = otlpTracesUrl(env);
  if (!url) return undefined;
  const { startOtelExport } = await import('./otel-export.js');
  logger.info({ url }, 'exporting run traces to OpenTelemetry');
  return startOtelExport(url, env.OTEL_SERVICE_NAME?.trim() || 'flowsvc');
}
