/**
 * Which adapter serves (FLOWSVC_HTTP_SERVER): `auto` checks the loaded uWS build once at start-up with one
 * loopback request whose header name holds `_`, and serves with uWS only if it is answered; `uws` and `node`
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

const UNDERSCORE_LIMITATION = 'requests with "_" in a header name (X-LANGFLOW-GLOBAL-VAR-OPENAI_API_KEY) get no answer (uNetworking/uWebSockets.js#1018)';

export async function chooseAdapter(setting: AdapterSetting): Promise<AdapterChoice> {
  if (setting === 'node') return { adapter: 'node', reason: 'node:http (FLOWSVC_HTTP_SERVER=node)' };
  if (!uwsIsNative) {
    const why = `${loadedUws.build} has no native binary for Node ${process.versions.node}`;
    if (setting === 'uws') throw new Error(`FLOWSVC_HTTP_SERVER=uws: ${why}; its pure-JS fallback is not served. Use auto or node.`);
    return { adapter: 'node', reason: `node:http: ${why}${fixedBuildNote()}` };
  }
  const answers = await answersUnderscoreHeaders();
  if (answers) return { adapter: 'uws', reason: `uWebSockets.js (${loadedUws.build})` };
  if (setting === 'uws') return { adapter: 'uws', reason: `uWebSockets.js (${loadedUws.build}, forced by FLOWSVC_HTTP_SERVER=uws)`, limitation: UNDERSCORE_LIMITATION };
  return { adapter: 'node', reason: `node:http: with ${loadedUws.build}, ${UNDERSCORE_LIMITATION}${fixedBuildNote()}` };
}

function fixedBuildNote(): string {
  return loadedUws.fixedBuildError ? `; the fixed build @btc-vision/uwebsockets.js did not load: ${loadedUws.fixedBuildError}` : '';
}

/**
 * One throwaway uWS listener on loopback gets two requests at once, one plain and one with `_` in a header name.
 * Once the plain one is answered, the other has a short grace (a few times the first's time) to be answered too.
 */
export function answersUnderscoreHeaders(): Promise<boolean> {
  // The loaded build does not change while the process runs: one check serves every start (tests start many).
  probed ??= probe();
  return probed;
}

let probed: Promise<boolean> | undefined;

function probe(): Promise<boolean> {
  return new Promise((resolve) => {
    const app = uws.App();
    app.any('/*', (res) => void res.end('ok'));
    app.listen('127.0.0.1', 0, (token: us_listen_socket | false) => {
      if (!token) return resolve(false);
      const port = uws.us_socket_local_port(token);
      const started = performance.now();
      let graceTimer: NodeJS.Timeout | undefined;
      const sockets = [ask(port, 'X-Plain-Probe: 1', onPlain), ask(port, 'X-Probe_Underscore: 1', () => finish(true))];
      const overall = setTimeout(() => finish(false), 2000);
      function onPlain(): void {
        const grace = Math.min(500, Math.max(50, 5 * (performance.now() - started)));
        graceTimer = setTimeout(() => finish(false), grace);
      }
      let done = false;
      function finish(answered: boolean): void {
        if (done) return;
        done = true;
        clearTimeout(overall);
        clearTimeout(graceTimer);
        for (const socket of sockets) socket.destroy();
        uws.us_listen_socket_close(token as us_listen_socket);
        resolve(answered);
      }
    });
  });
}

function ask(port: number, header: string, onAnswer: () => void) {
  const socket = connect(port, '127.0.0.1', () => socket.write(`GET /probe HTTP/1.1\r\nHost: 127.0.0.1\r\n${header}\r\n\r\n`));
  socket.once('data', onAnswer);
  socket.on('error', () => undefined);
  return socket;
}
