/**
 * Thousands of concurrent v1 run streams from one process. Each is a bare TCP socket writing one HTTP/1.1 request
 * and scanning the reply's bytes for the stream's frame markers, so the bench's own cost per stream stays a socket
 * and a few string scans (no agent, no parser, no response objects). The sockets open a bounded number at a time
 * (the next one starts when one has its first token) so accept queues never overflow into SYN retries.
 */
import { connect, type Socket } from 'node:net';

export interface StreamTarget {
  /** http://host:port */
  url: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

export interface StreamTally {
  /** Streams whose socket was opened (fewer than asked when the opening deadline cut it short). */
  started: number;
  /** Streams whose first token arrived. */
  open: number;
  /** Streams whose `end` frame arrived. */
  completed: number;
  failed: number;
  /** The first few failure reasons, for the report. */
  reasons: string[];
}

export interface RunStreams {
  tally: StreamTally;
  /** Resolves once every stream has its first token or has failed; at the deadline, stops opening more. */
  allOpen: Promise<void>;
  /** Resolves once every started stream has ended or failed, or after `timeoutMs`. */
  settled(timeoutMs: number): Promise<void>;
  /** Destroys every socket still open. */
  destroy(): void;
}

/** What marks a stream's first token, its end and a failure: a v1 run stream's frames unless told otherwise. */
export interface StreamMarkers {
  token: string;
  end: string;
  error?: string;
}

const RUN_STREAM: StreamMarkers = { token: '"event":"token"', end: '"event":"end"', error: '"event":"error"' };
/** Long enough to hold any marker that a chunk boundary cut in two. */
const TAIL = 32;

export function openRunStreams(target: StreamTarget, count: number, options: { openingAtOnce: number; openDeadlineMs: number; markers?: StreamMarkers }): RunStreams {
  const markers = options.markers ?? RUN_STREAM;
  const { hostname, port } = new URL(target.url);
  const request = Buffer.from(
    [`POST ${target.path} HTTP/1.1`, `host: ${hostname}:${port}`, ...Object.entries(target.headers).map(([k, v]) => `${k}: ${v}`), `content-length: ${Buffer.byteLength(target.body)}`, '', target.body].join('\r\n'),
  );
  const tally: StreamTally = { started: 0, open: 0, completed: 0, failed: 0, reasons: [] };
  const sockets = new Set<Socket>();
  let opening = 0;
  let stopped = false;
  let resolveOpen!: () => void;
  let resolveSettled!: () => void;
  const allOpen = new Promise<void>((r) => (resolveOpen = r));
  const allSettled = new Promise<void>((r) => (resolveSettled = r));
  const openDeadline = setTimeout(() => {
    stopped = true;
    resolveOpen();
  }, options.openDeadlineMs);

  /** Streams that settled before their first token: they no longer hold `allOpen` back. */
  let settledUnopened = 0;
  const check = () => {
    if (tally.open + settledUnopened >= (stopped ? tally.started : count)) {
      clearTimeout(openDeadline);
      resolveOpen();
    }
    if ((stopped || tally.started === count) && tally.completed + tally.failed >= tally.started) resolveSettled();
  };

  const startNext = () => {
    while (!stopped && opening < options.openingAtOnce && tally.started < count) {
      tally.started++;
      opening++;
      openOne();
    }
  };

  function openOne() {
    const socket = connect({ host: hostname, port: Number(port), noDelay: true });
    sockets.add(socket);
    let state: 'opening' | 'open' | 'done' = 'opening';
    let tail = '';
    let statusChecked = false;
    const fail = (reason: string) => {
      if (state === 'done') return;
      if (state === 'opening') {
        opening--;
        settledUnopened++;
      }
      state = 'done';
      tally.failed++;
      if (tally.reasons.length < 5) tally.reasons.push(reason);
      socket.destroy();
      startNext();
      check();
    };
    socket.on('connect', () => socket.write(request));
    socket.on('data', (bytes: Buffer) => {
      const text = tail + bytes.toString('latin1');
      if (!statusChecked) {
        statusChecked = true;
        if (!text.startsWith('HTTP/1.1 200')) return fail(`status: ${text.slice(0, text.indexOf('\r\n'))}`);
      }
      if (state === 'opening' && text.includes(markers.token)) {
        state = 'open';
        opening--;
        tally.open++;
        startNext();
        check();
      }
      if (text.includes(markers.end)) {
        if (state === 'opening') {
          opening--;
          settledUnopened++;
        }
        state = 'done';
        tally.completed++;
        socket.destroy();
        sockets.delete(socket);
        startNext();
        check();
        return;
      }
      if (markers.error && text.includes(markers.error)) return fail(`error frame: ${text.slice(text.indexOf(markers.error), text.indexOf(markers.error) + 200)}`);
      tail = text.slice(-TAIL);
    });
    socket.on('error', (error) => fail(`socket: ${error.message}`));
    socket.on('close', () => {
      sockets.delete(socket);
      fail('closed before the end frame');
    });
  }

  startNext();
  return {
    tally,
    allOpen,
    settled: (timeoutMs) => Promise.race([allSettled, new Promise<void>((r) => setTimeout(r, timeoutMs).unref())]),
    destroy: () => {
      stopped = true;
      clearTimeout(openDeadline);
      for (const socket of sockets) socket.destroy();
    },
  };
}
