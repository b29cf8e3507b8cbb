/**
 * A local OTLP/HTTP trace receiver (the collector a deployment would run): takes the exporter's JSON posts on
 * /v1/traces and keeps their spans flattened, with their attributes as plain values.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text } from 'node:stream/consumers';

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  attributes: Record<string, unknown>;
  status: { code?: number; message?: string };
  startTimeUnixNano: string;
  endTimeUnixNano: string;
}

export interface OtlpReceiver {
  /** http://127.0.0.1:<port> (the OTEL_EXPORTER_OTLP_ENDPOINT). */
  url: string;
  readonly spans: ReceivedSpan[];
  /** Resolves once a received span satisfies `test` (at once if one already does). */
  spanWhere(test: (span: ReceivedSpan) => boolean): Promise<ReceivedSpan>;
  close(): Promise<void>;
}

type AnyValue = { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };

const plain = (value: AnyValue): unknown => value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : (value.doubleValue ?? value.boolValue));

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const waiters: { test: (span: ReceivedSpan) => boolean; resolve: (span: ReceivedSpan) => void }[] = [];
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/traces' || !req.headers['content-type']?.includes('json')) {
      res.writeHead(415).end();
      return;
    }
    const body = JSON.parse(await text(req));
    for (const resource of body.resourceSpans ?? []) {
      for (const scope of resource.scopeSpans ?? []) {
        for (const span of scope.spans ?? []) {
          const attributes: Record<string, unknown> = {};
          for (const { key, value } of span.attributes ?? []) attributes[key] = plain(value);
          spans.push({ ...span, parentSpanId: span.parentSpanId || undefined, attributes, status: span.status ?? {} });
        }
      }
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    for (const waiter of [...waiters]) {
      const found = spans.find(waiter.test);
      if (found) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(found);
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans,
    spanWhere: (test) => {
      const found = spans.find(test);
      return found ? Promise.resolve(found) : new Promise((resolve) => waiters.push({ test, resolve }));
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
