/**
 * Which adapter serves (FLOWSVC_HTTP_SERVER): `auto` checks the loaded uWS build once at start-up with loopback
 * requests (one whose header name holds `_`, one in HTTP/1.0), and serves with uWS only if both are answered; `uws` and `node`
 * force one. A valid request must never go unanswered, and uWS's pure-JS fallback is never used.
 */
import { connect } from 'node:net';
import type { us_listen_socket } from 'uWebSockets.js';
import { loadedUws, uws, uwsIsNative } from './uws-native.js';
import type { EdgeAdapter } from './uws-server.js';

export type AdapterSetting = 'auto' | 'uws' | 'node';

export interface AdapterChoice {
  adapter: EdgeAdapter;
  /** One line for the start-up log: what serves and why. */
  reason: string;
  /** Set when the chosen adapter is known not to answer every valid request. */
  limitation?: string;
}

const LIMITATIONS = {
  underscore: 'requests with "_" in a header name (X-LANGFLOW-GLOBAL-VAR-OPENAI_API_KEY) get no answer (uNetworking/uWebSockets.js#1018)',
  http10: 'HTTP/1.0 requests (nginx proxies with HTTP/1.0 unless told otherwise) get no answer',
};

export async function chooseAdapter(setting: AdapterSetting): Promise<AdapterChoice> {
  if (setting === 'node') return { adapter: 'node', reason: 'node:http (FLOWSVC_HTTP_SERVER=node)' };
  if (!uwsIsNative) {
    const why = `${loadedUws.build} has no native binary for Node ${process.versions.node}`;
    if (setting === 'uws') throw new Error(`FLOWSVC_HTTP_SERVER=uws: ${why}; its pure-JS fallback is not served. Use auto or node.`);
    return { adapter: 'node', reason: `node:http: ${why}${fixedBuildNote()}` };
  }
  const unanswered = await uwsUnanswered();
  if (unanswered.length === 0) return { adapter: 'uws', reason: `uWebSockets.js (${loadedUws.build})` };
  const limitation = unanswered.map((kind) => LIMITATIONS[kind]).join('; ');
  if (setting === 'uws') return { adapter: 'uws', reason: `uWebSockets.js (${loadedUws.build}, forced by FLOWSVC_HTTP_SERVER=uws)`, limitation };
  return { adapter: 'node', reason: `node:http: with ${loadedUws.build}, ${limitation}${fixedBuildNote()}` };
}

function fixedBuildNote(): string {
  return loadedUws.fixedBuildError ? `; the fixed build @btc-vision/uwebsockets.js did not load: ${loadedUws.fixedBuildError}` : '';
}

/** Whether the loaded uWS build answers a request with `_` in a header name. */
export async function answersUnderscoreHeaders(): Promise<boolean> {
  return !(await uwsUnanswered()).includes('underscore');
}

type ProbeKind = keyof typeof LIMITATIONS;

/**
 * One throwaway uWS listener on loopback gets three requests at once: a plain one, one with `_` in a header name,
 * and an HTTP/1.0 one. Once the plain one is answered, the others have a short grace (a few times the first's time)
 * to be answered too; those that are not are the build's limitations.
 */
export function uwsUnanswered(): Promise<ProbeKind[]> {
  // The loaded build does not change while the process runs: one check serves every start (tests start many).
  probed ??= probe();
  return probed;
}

let probed: Promise<ProbeKind[]> | undefined;

const PROBES: Record<ProbeKind, string> = {
  underscore: 'GET /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Probe_Underscore: 1\r\n\r\n',
  http10: 'GET /probe HTTP/1.0\r\n\r\n',
};

function probe(): Promise<ProbeKind[]> {
  return new Promise((resolve) => {
    const app = uws.App();
    app.any('/*', (res) => void res.end('ok'));
    app.listen('127.0.0.1', 0, (token: us_listen_socket | false) => {
      if (!token) return resolve(Object.keys(PROBES) as ProbeKind[]);
      const port = uws.us_socket_local_port(token);
      const started = performance.now();
      const pending = new Set(Object.keys(PROBES) as ProbeKind[]);
      let graceTimer: NodeJS.Timeout | undefined;
      const answered = (kind: ProbeKind) => () => {
        pending.delete(kind);
        if (pending.size === 0) finish();
      };
      const sockets = [ask(port, 'GET /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Plain-Probe: 1\r\n\r\n', onPlain), ...[...pending].map((kind) => ask(port, PROBES[kind], answered(kind)))];
      const overall = setTimeout(finish, 2000);
      function onPlain(): void {
        const grace = Math.min(500, Math.max(50, 5 * (performance.now() - started)));
        graceTimer = setTimeout(finish, grace);
      }
      let done = false;
      function finish(): void {
        if (done) return;
        done = true;
        clearTimeout(overall);
        clearTimeout(graceTimer);
        for (const socket of sockets) socket.destroy();
        uws.us_listen_socket_close(token as us_listen_socket);
        resolve([...pending]);
      }
    });
  });
}

function ask(port: number, request: string, onAnswer: () => void) {
  const socket = connect(port, '127.0.0.1', () => socket.write(request));
  socket.once('data', onAnswer);
  socket.on('error', () => undefined);
  return socket;
}
