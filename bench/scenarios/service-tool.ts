/**
 * Tavily as an Agent's tool against a local tool, in the same run: an agent flow whose model calls Tavily's search
 * once (a local Tavily stand-in answering at once) against the same flow calling Calculator once, measured on the
 * service process (its CPU time from /proc, so the stand-ins and the model server in this process do not count)
 * over alternating rounds of sequential runs. The difference per run is what the Tavily component costs per call
 * over the network wait: building the request, the bounded read, the Table and the tool result. Then, in this
 * process against a Tavily stand-in in a child process, the component's run against a bare undici request to the
 * same stand-in: what the component adds over the HTTP client's own floor.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { tavilySearch } from '../../src/components/search/tavily-search.js';
import { undici } from '../../src/components/shared/heavy-modules.js';
import type { ComponentContext } from '../../src/components/contract.js';
import { startAgentModel, startTavily } from '../support/agent-tool-servers.js';
import { startProcess, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, median, runOnce } from '../support/runs.js';

function agentFlow(name: string, toolType: string, template: Record<string, unknown>, modelBaseURL: string) {
  const node = (id: string, type: string, fields: Record<string, unknown> = {}) => ({ id, type: 'genericNode', data: { id, type, node: { display_name: id, template: Object.fromEntries(Object.entries(fields).map(([k, v]) => [k, { value: v }])) } } });
  const edge = (source: string, output: string, target: string, field: string) => ({ source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, fieldName: field } } });
  const agent = { agent_llm: 'OpenAI', model_name: 'gpt-4o-mini', api_key: 'sk-bench', openai_api_base: modelBaseURL, add_current_date_tool: false };
  return {
    name,
    data: {
      nodes: [node('ChatInput-in', 'ChatInput'), node(`${toolType}-tool`, toolType, template), node('Agent-a', 'Agent', agent), node('ChatOutput-out', 'ChatOutput')],
      edges: [edge('ChatInput-in', 'message', 'Agent-a', 'input_value'), edge(`${toolType}-tool`, 'component_as_tool', 'Agent-a', 'tools'), edge('Agent-a', 'response', 'ChatOutput-out', 'input_value')],
    },
  };
}

/** utime + stime of a process, in milliseconds (clock ticks of 10 ms: summed over many runs). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export async function serviceToolScenario(): Promise<Row[]> {
  const tavily = await startTavily();
  const model = await startAgentModel();
  const service = await startService({ FLOWSVC_STORE_SYNC: 'off', FLOWSVC_TAVILY_BASE_URL: tavily.url, FLOWSVC_TRACES_ENABLED: 'false' });
  const pid = service.child.pid!;
  const urls = {
    tavily: `${service.url}/api/v1/run/${await createFlow(service.url, agentFlow('tavily tool', 'TavilySearchComponent', { api_key: 'tvly-bench' }, `${model.url}/v1`))}`,
    local: `${service.url}/api/v1/run/${await createFlow(service.url, agentFlow('local tool', 'CalculatorComponent', {}, `${model.url}/v1`))}`,
  };
  const perRound = 40;
  const rounds = 7;
  const samples = { tavily: { cpu: [] as number[], wall: [] as number[] }, local: { cpu: [] as number[], wall: [] as number[] } };
  for (const url of Object.values(urls)) for (let i = 0; i < 40; i++) await runOnce(url);
  for (let round = 0; round < rounds; round++) {
    for (const which of ['tavily', 'local'] as const) {
      const cpu = cpuMsOf(pid);
      const started = performance.now();
      for (let i = 0; i < perRound; i++) await runOnce(urls[which]);
      samples[which].wall.push((performance.now() - started) / perRound);
      samples[which].cpu.push((cpuMsOf(pid) - cpu) / perRound);
    }
  }
  const searches = tavily.requests;
  await service.stop();
  await model.close();
  await tavily.close();
  if (searches < rounds * perRound) throw new Error(`Tavily was searched ${searches} times, fewer than the runs`);

  const cpu = { tavily: median(samples.tavily.cpu), local: median(samples.local.cpu) };
  const wall = { tavily: median(samples.tavily.wall), local: median(samples.local.wall) };
  const added = cpu.tavily - cpu.local;
  const base = { scenario: 'service-tool', baselineName: 'the same agent run calling Calculator' };
  const inProcess = await componentOverHttpFloor();
  const floor = { scenario: 'service-tool', baselineName: 'a bare undici request to the stand-in' };
  return [
    { ...base, measure: 'service CPU per agent run calling Tavily once', value: cpu.tavily, unit: 'ms', baseline: cpu.local, ratio: cpu.tavily / cpu.local },
    { scenario: 'service-tool', measure: 'Tavily tool CPU added per call (over a local tool)', value: added, unit: 'ms', target: '< 1', pass: added < 1 },
    { ...base, measure: 'run latency, Tavily tool (stand-in answers at once)', value: wall.tavily, unit: 'ms', baseline: wall.local, ratio: wall.tavily / wall.local },
    { ...floor, measure: 'Tavily component run, CPU per call (in process)', value: inProcess.componentMs, unit: 'ms', baseline: inProcess.floorMs, ratio: inProcess.componentMs / inProcess.floorMs },
    { scenario: 'service-tool', measure: 'Tavily component CPU over the HTTP floor', value: inProcess.componentMs - inProcess.floorMs, unit: 'ms', target: '< 1', pass: inProcess.componentMs - inProcess.floorMs < 1 },
  ];
}

/** CPU ms per call of the component's run and of a bare request, alternating rounds, medians. */
async function componentOverHttpFloor(): Promise<{ componentMs: number; floorMs: number }> {
  const stand = await startProcess(fileURLToPath(new URL('../support/tavily-answer-server.js', import.meta.url)), []);
  process.env.FLOWSVC_TAVILY_BASE_URL = stand.url;
  const client = await undici.load();
  const ctx = { signal: new AbortController().signal, requested: new Set(['dataframe']), variable: async () => '' } as unknown as ComponentContext;
  const inputs = { api_key: 'tvly-bench', query: 'flows', search_depth: 'advanced', chunks_per_source: 3, topic: 'general', days: 7, max_results: 5, include_answer: true, time_range: '', include_images: true, include_domains: '', exclude_domains: '', include_raw_content: false } as const;
  const component = () => tavilySearch.run(inputs as never, ctx);
  const bare = async () => {
    const response = await client.request(`${stand.url}/search`, { method: 'POST', body: JSON.stringify(inputs), headers: { 'content-type': 'application/json' } });
    await response.body.json();
  };
  const cpuPerCall = async (work: () => Promise<unknown>, count: number) => {
    const before = process.cpuUsage();
    for (let i = 0; i < count; i++) await work();
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1000 / count;
  };
  for (let i = 0; i < 200; i++) await component(), await bare();
  const samples = { component: [] as number[], floor: [] as number[] };
  for (let round = 0; round < 9; round++) {
    samples.component.push(await cpuPerCall(component, 200));
    samples.floor.push(await cpuPerCall(bare, 200));
  }
  delete process.env.FLOWSVC_TAVILY_BASE_URL;
  await stand.stop();
  return { componentMs: median(samples.component), floorMs: median(samples.floor) };
}
