/**
 * MCP: an echo flow called as a tool over Streamable HTTP (the official SDK client, one stateful session per
 * worker) against a v1 run of the same flow from the same number of workers (plain fetch), in alternating rounds
 * of the same length (target >= 0.7 of its throughput). A tool call runs on a fresh session, as Langflow's do,
 * so the v1 runs it is held against each name a fresh session too: the same work (a v1 run reusing one session
 * skips the new session's set-up, and is measured as well, for reference). The SDK client costs this process about
 * twice the CPU per call that a fetch does, and both share the machine's cores with the service, so the end-to-end
 * ratio is partly the clients'. Two measures say what the service does: the same calls from a lean client (fetch,
 * the SSE reply read whole), and the service's own CPU time per call (from /proc, every thread) against its CPU
 * time per v1 run (its throughput when its CPU is what limits), both paced at the same rate (60% of what the SDK
 * client reached unpaced): a service under less load shares its commits and turns among fewer calls, so CPU per
 * call is only compared at equal rates. And the resident memory per idle MCP session (an SDK client connected, its
 * notification stream open, nothing called), on a service of its own, after a full GC (<= 32 KB).
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { echoFlow } from '../support/flows.js';
import { freePort, inspectFlag, inspectHeap } from '../support/inspected-heap.js';
import { cpuMsOf, kb, memoryOf } from '../support/proc.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, runOnce } from '../support/runs.js';

const WORKERS = 16;
const ROUNDS = 3;
const SESSIONS = Number(process.env.BENCH_MCP_SESSIONS ?? 1000);
const THROUGHPUT_TARGET = 0.7;
/** The rate CPU per call is compared at, as a share of the SDK client's unpaced rate (below every path's limit). */
const PACED_SHARE = 0.6;
const SESSION_TARGET_KB = 32;

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const headers = { 'x-api-key': BENCH_API_KEY };

async function connect(url: string): Promise<Client> {
  const client = new Client({ name: 'flowsvc-bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/api/v1/mcp/streamable`), { requestInit: { headers } }));
  return client;
}

interface Rate {
  perSecond: number;
  /** The service's CPU time over the round, in ms, and the calls it answered. */
  serviceCpuMs: number;
  /** This process's CPU time over the round (the clients'), in ms. */
  clientCpuMs: number;
  calls: number;
}

/**
 * Calls per second from `workers` loops of `call` for `seconds`, and what they cost the process `pid`. Paced at
 * `perSecond` (all workers together), each worker waits for its next slot; a late call is followed at once.
 */
async function rate(seconds: number, workers: number, call: (worker: number) => Promise<unknown>, pid?: number, perSecond?: number): Promise<Rate> {
  const start = performance.now();
  const until = start + seconds * 1000;
  const interval = perSecond ? (workers * 1000) / perSecond : 0;
  const cpuBefore = cpuMsOf(pid);
  const clientBefore = process.cpuUsage();
  let done = 0;
  await Promise.all(
    Array.from({ length: workers }, async (_, worker) => {
      for (let slot = 0; performance.now() < until; slot++) {
        const due = start + (slot + worker / workers) * interval;
        if (interval > 0 && due > performance.now()) await settle(due - performance.now());
        await call(worker);
        done++;
      }
    }),
  );
  const client = process.cpuUsage(clientBefore);
  return { perSecond: done / seconds, serviceCpuMs: cpuMsOf(pid) - cpuBefore, clientCpuMs: (client.user + client.system) / 1000, calls: done };
}

export async function mcpScenario(seconds: number): Promise<Row[]> {
  const service = await startService();
  try {
    const id = await createFlow(service.url, echoFlow('bench mcp echo'));
    const runUrl = `${service.url}/api/v1/run/${id}`;
    const clients = await Promise.all(Array.from({ length: WORKERS }, () => connect(service.url)));
    const { tools } = await clients[0].listTools();
    const name = tools.find((tool) => tool.description?.startsWith(id))?.name ?? tools[0].name;
    const v1 = () => runOnce(runUrl, JSON.stringify({ input_value: 'hello', session_id: randomUUID() }));
    const v1SameSession = () => runOnce(runUrl);
    const lean = leanCaller(service.url, clients.map((client) => (client.transport as StreamableHTTPClientTransport).sessionId!), name);
    const tool = async (worker: number) => {
      const result = await clients[worker].callTool({ name, arguments: { input_value: 'hello' } });
      if (result.isError) throw new Error(`tool call failed: ${JSON.stringify(result.content)}`);
    };
    // Warm-up of both paths, then alternating rounds so drift on the shared machine hits both alike.
    await rate(1, WORKERS, v1);
    await rate(1, WORKERS, tool);
    await rate(1, WORKERS, lean);
    const rounds: Record<'v1' | 'tool' | 'lean' | 'sameSession' | 'v1Paced' | 'toolPaced', Rate[]> = { v1: [], tool: [], lean: [], sameSession: [], v1Paced: [], toolPaced: [] };
    const mean = (rates: Rate[]) => rates.reduce((sum, r) => sum + r.perSecond, 0) / rates.length;
    const round = seconds / ROUNDS;
    const pid = service.child.pid;
    for (let i = 0; i < ROUNDS; i++) {
      rounds.v1.push(await rate(round, WORKERS, v1, pid));
      rounds.tool.push(await rate(round, WORKERS, tool, pid));
      rounds.lean.push(await rate(round, WORKERS, lean, pid));
      rounds.sameSession.push(await rate(round, WORKERS, v1SameSession, pid));
    }
    const paced = PACED_SHARE * mean(rounds.tool);
    for (let i = 0; i < ROUNDS; i++) {
      rounds.v1Paced.push(await rate(round, WORKERS, v1, pid, paced));
      rounds.toolPaced.push(await rate(round, WORKERS, tool, pid, paced));
    }
    await Promise.all(clients.map((client) => client.close()));
    const usPerCall = (rates: Rate[], cpu: (rate: Rate) => number = (r) => r.serviceCpuMs) => (rates.reduce((sum, r) => sum + cpu(r), 0) / rates.reduce((sum, r) => sum + r.calls, 0)) * 1000;
    const [v1Rate, toolRate, leanRate, sameSessionRate] = [mean(rounds.v1), mean(rounds.tool), mean(rounds.lean), mean(rounds.sameSession)];
    const [v1Cpu, toolCpu] = [usPerCall(rounds.v1Paced), usPerCall(rounds.toolPaced)];
    const clientCpu = (r: Rate) => r.clientCpuMs;
    const [fetchClientCpu, sdkClientCpu] = [usPerCall(rounds.v1Paced, clientCpu), usPerCall(rounds.toolPaced, clientCpu)];

    const idle = await perIdleSession();
    return [
      { scenario: 'mcp', measure: `tools/call of an echo flow, Streamable HTTP, ${WORKERS} sessions`, value: toolRate, unit: 'calls/s', baseline: v1Rate, baselineName: 'v1 run, fresh session each, same workers', ratio: toolRate / v1Rate, target: `>= ${THROUGHPUT_TARGET}`, pass: toolRate / v1Rate >= THROUGHPUT_TARGET },
      { scenario: 'mcp', measure: `service CPU per tools/call from the SDK client, ${Math.round(paced)} calls/s (its throughput where its CPU limits)`, value: toolCpu, unit: 'us CPU/call', baseline: v1Cpu, baselineName: 'service CPU per v1 run, same rate', ratio: v1Cpu / toolCpu, target: `>= ${THROUGHPUT_TARGET}`, pass: v1Cpu / toolCpu >= THROUGHPUT_TARGET },
      { scenario: 'mcp', measure: 'client CPU per tools/call, SDK client (this process, same paced rounds)', value: sdkClientCpu, unit: 'us CPU/call', baseline: fetchClientCpu, baselineName: 'client CPU per v1 run, fetch' },
      { scenario: 'mcp', measure: `tools/call of an echo flow, Streamable HTTP, lean client`, value: leanRate, unit: 'calls/s', baseline: v1Rate, baselineName: 'v1 run, fresh session each, same workers', ratio: leanRate / v1Rate, target: `>= ${THROUGHPUT_TARGET}`, pass: leanRate / v1Rate >= THROUGHPUT_TARGET },
      { scenario: 'mcp', measure: 'v1 run reusing one session (reference: no new session per run)', value: sameSessionRate, unit: 'calls/s' },
      { scenario: 'mcp', measure: `RSS per idle MCP session (${idle.held} held, notification stream open; after a GC)`, value: idle.rssKb, unit: 'KB', target: `<= ${SESSION_TARGET_KB} KB`, pass: idle.rssKb <= SESSION_TARGET_KB },
      { scenario: 'mcp', measure: 'JS heap per idle MCP session (the same sessions, after a GC)', value: idle.heapKb, unit: 'KB' },
    ];
  } finally {
    await service.stop();
  }
}

/**
 * Opens SESSIONS idle sessions on a service of their own and divides its growth among them: resident memory and
 * JS heap, each read after a full GC before and after (through the inspector), so the garbage of the warm-up and
 * the collections that opening happens to trigger do not count.
 */
async function perIdleSession(): Promise<{ held: number; rssKb: number; heapKb: number }> {
  const port = await freePort();
  const service = await startService({ NODE_OPTIONS: inspectFlag(port) });
  const heap = await inspectHeap(port);
  try {
    const pid = service.child.pid!;
    const warm = await openSessions(service.url, 100);
    await Promise.all(warm.map((client) => client.close()));
    await heap.collect();
    const before = { rss: memoryOf(pid).rss, heap: await heap.used() };
    const clients = await openSessions(service.url, SESSIONS);
    await heap.collect();
    const during = { rss: memoryOf(pid).rss, heap: await heap.used() };
    await Promise.all(clients.map((client) => client.close()));
    return { held: clients.length, rssKb: kb(during.rss - before.rss) / clients.length, heapKb: kb(during.heap - before.heap) / clients.length };
  } finally {
    heap.close();
    await service.stop();
  }
}

async function openSessions(url: string, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  for (let start = 0; start < count; start += 50) {
    clients.push(...(await Promise.all(Array.from({ length: Math.min(50, count - start) }, () => connect(url)))));
  }
  return clients;
}

/** tools/call over each worker's session with fetch alone: the request as the SDK client sends it, the reply read whole. */
function leanCaller(url: string, sessionIds: string[], name: string): (worker: number) => Promise<void> {
  let next = 1;
  return async (worker) => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: next++, method: 'tools/call', params: { name, arguments: { input_value: 'hello' } } });
    const res = await fetch(`${url}/api/v1/mcp/streamable`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionIds[worker], 'mcp-protocol-version': '2025-06-18' },
      body,
    });
    const text = await res.text();
    if (!res.ok || !text.includes('"result"')) throw new Error(`lean tools/call: ${res.status} ${text.slice(0, 200)}`);
  };
}
