/**
 * The chosen stack's floor for an echo run: the least any service built on uWS, nact and LMDB does for
 * `POST /api/v1/run` on a ChatInput -> ChatOutput flow, and nothing else (no auth, validation, graph, events):
 * - parse the JSON body;
 * - run it as one nact actor per run, the vertices as tasks that report to it as messages (the cheapest use of
 *   nact the architecture allows: one actor per run);
 * - with `store`: put both messages to LMDB as the service stores them (msgpack with shared structures, keyed by
 *   session and by id with time-ordered ids, the same sync mode) and wait for their commit (random ids would
 *   make the id index's writes land all over the tree: the floor fell to the service's figure with them);
 * - answer with a reply of Langflow's shape and size;
 * - with `traced`: `store`, and a trace of the run as the service keeps one (a row of JSON text of the same shape,
 *   372 bytes where the service's echo run has 427, under a key of the same parts), put in the same tick as the
 *   answer's message and not waited for: the least any service that records each run does;
 * - with `paged`: `store`, and the same rows gathered as the service gathers its traces (GATHER_MS, or GATHER_MAX of
 *   them) and put as one record, with what a listing needs of each beside it: the least a service writing fewer
 *   records than runs does.
 * It tells the service's cost apart from the stack's own: a target under the floor cannot be met by tuning.
 * Usage: `node stack-floor.js <store|traced|paged|actor> <lmdb dir>` (FLOWSVC_STORE_SYNC as the service's).
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { open } from 'lmdb';
import { dispatch, spawn, start, stop } from 'nact';
import type * as UWS from 'uWebSockets.js';
import { timeOrderedId } from '../../src/ids/time-ordered-id.js';
import { GATHER_MAX, GATHER_MS } from '../../src/services/records/run-recorder.js';

const uws: typeof UWS = createRequire(import.meta.url)('uWebSockets.js');
const paged = process.argv[2] === 'paged';
const traced = paged || process.argv[2] === 'traced';
const withStore = traced || process.argv[2] === 'store';
const sync = process.env.FLOWSVC_STORE_SYNC === 'off' ? { noSync: true } : {};
const env = open({ path: process.argv[3], maxDbs: 8, encoding: 'msgpack', ...sync });
const messages = env.openDB({ name: 'messages', encoding: 'msgpack', sharedStructuresKey: Symbol.for('structures') });
const ids = env.openDB({ name: 'message_ids', encoding: 'msgpack' });
const traces = env.openDB({ name: 'run_traces', encoding: 'string' });

const system = start();
let seq = 0;

function message(text: string, sender: 'User' | 'Machine', vertexId: string, sessionId: string) {
  const id = timeOrderedId();
  const properties = { source: { id: vertexId, display_name: vertexId, source: null }, icon: 'MessagesSquare', state: 'complete' };
  const common = { sender, sender_name: sender === 'User' ? 'User' : 'AI', session_id: sessionId, context_id: null, text, files: [], error: false, edit: false };
  return { id, flow_id: sessionId, timestamp: new Date().toISOString(), ...common, properties, category: 'message', content_blocks: [], seq: seq++ };
}
type Message = ReturnType<typeof message>;

function store(m: Message): Promise<unknown> {
  const key = [m.flow_id, m.session_id, m.seq];
  return Promise.all([messages.put(key, m), ids.put(m.id, key)]);
}

/** Ids of the size the service's are (a user's and a flow's), for a trace's key. */
const [traceUser, traceFlow] = [randomUUID(), randomUUID()];

/** The run's trace as a row of the service's shape (src/store/lmdb/trace-text.ts): the answer linked to the question. */
function putTrace(question: Message, answer: Message, startedAt: number): void {
  const recorded = ({ text, sender, sender_name }: Message) => ({ text, sender, sender_name });
  const spans = [
    ['ChatInput-in', 'ChatOutput-out', 'Chat Input', 'ChatInput', 11, 153, 'ok', { input_value: question.text }, { message: recorded(question) }],
    ['ChatOutput-out', null, 'Chat Output', 'ChatOutput', 1011, 95, 'ok', {}, { message: recorded(answer) }, [['input_value', 0, 'message']]],
  ];
  const row = [2, 'floor', 'ok', Date.now(), question.text, 1, null, spans];
  const id = randomUUID();
  if (!paged) {
    void traces.put([traceUser, traceFlow, startedAt, id, spans.length, question.session_id], JSON.stringify(row));
    return;
  }
  // The first trace of a page starts its gathering; a full page is put at once (as the service's recorder does).
  const count = page.push([startedAt, id, spans.length, question.session_id, row]);
  if (count === 1) gathering = setTimeout(putPage, GATHER_MS);
  else if (count === GATHER_MAX) putPage();
}

/** The traces gathered (`paged`): [startedAt, id, span count, session, row] each. */
let page: [number, string, number, string, unknown[]][] = [];
let gathering: NodeJS.Timeout | undefined;

function putPage(): void {
  clearTimeout(gathering);
  const [first] = page;
  void traces.put([traceUser, traceFlow, first[0], first[1]], JSON.stringify(page));
  page = [];
}

/** One actor for the run; each vertex is a task that tells the actor its message. */
function run(input: string, sessionId: string): Promise<Message> {
  return new Promise((resolve, reject) => {
    const writes: Promise<unknown>[] = [];
    const startedAt = Date.now();
    let question: Message;
    const vertex = (text: string, sender: 'User' | 'Machine', id: string) => queueMicrotask(() => dispatch(job, message(text, sender, id, sessionId)));
    const job = spawn(system, (state: { done: number }, m: Message, ctx) => {
      if (withStore) writes.push(store(m));
      if (state.done === 0) {
        question = m;
        vertex(m.text, 'Machine', 'ChatOutput-out');
        return { done: 1 };
      }
      stop(ctx.self);
      if (traced) putTrace(question, m, startedAt);
      Promise.all(writes).then(() => resolve(m), reject);
      return state;
    }, undefined, { initialStateFunc: () => ({ done: 0 }) });
    vertex(input, 'User', 'ChatInput-in');
  });
}

function reply(m: Message) {
  const message = { ...m, text_key: 'text', data: { text: m.text }, default_value: '', component_id: 'ChatOutput-out' };
  const chat = { message: m.text, sender: m.sender, sender_name: m.sender_name, session_id: m.session_id, stream_url: null, component_id: 'ChatOutput-out', files: [], type: 'text' };
  const results = { results: { message }, artifacts: { message: { repr: m.text, raw: m.text, type: 'text' } }, outputs: { message: { message: m.text, type: 'text' } }, logs: { message: [] }, messages: [chat] };
  const timing = { timedelta: 0.001, duration: '1 ms', component_display_name: 'Chat Output', component_id: 'ChatOutput-out', used_frozen_result: false };
  return { session_id: m.session_id, outputs: [{ inputs: { input_value: m.text }, outputs: [{ ...results, ...timing }] }] };
}

const app = uws.App();
app.post('/*', (res) => {
  const chunks: Buffer[] = [];
  let aborted = false;
  res.onAborted(() => {
    aborted = true;
  });
  res.onData((chunk, isLast) => {
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!isLast) return;
    const body = JSON.parse(Buffer.concat(chunks).toString()) as { input_value: string; session_id?: string };
    run(body.input_value, body.session_id ?? 'floor-session').then((m) => {
      if (!aborted) res.cork(() => res.writeHeader('content-type', 'application/json').end(JSON.stringify(reply(m))));
    });
  });
});

app.listen('127.0.0.1', 0, (token) => {
  if (!token) process.exit(1);
  process.stdout.write(`listening on http://127.0.0.1:${uws.us_socket_local_port(token)}\n`);
});
