/**
 * Custom components against native ones, in the same run: a flow whose middle node is a custom echo (TypeScript, in
 * the QuickJS sandbox) against the same flow with the native TextOutput in its place, under load (50 connections)
 * and one run at a time, on one service (FLOWSVC_STORE_SYNC=off: what differs is CPU, not flush waits). Then the
 * sandbox itself, in this process: a new engine and sandbox, a new sandbox in a spare engine, and a kept sandbox.
 */
import { compileSource } from '../../src/components/custom/component-source.js';
import { CustomComponents } from '../../src/components/custom/custom-components.js';
import { newEngineInstance, type EngineInstance } from '../../src/components/custom/quickjs-module.js';
import { Sandbox } from '../../src/components/custom/sandbox.js';
import type { ComponentContext } from '../../src/components/contract.js';
import { load } from '../support/load.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { alternatingMs, createFlow, RUN_BODY as BODY } from '../support/runs.js';

const ECHO_SOURCE = `export default {
  displayName: 'Custom Echo',
  fields: { input_value: { kind: 'handle', displayName: 'Input', inputTypes: ['Message'] } },
  outputs: [{ name: 'text', displayName: 'Text', types: ['Message'] }],
  run(inputs: { input_value: { text: string } }) {
    return { text: inputs.input_value.text };
  },
};`;

/** ChatInput -> `middle` (field input_value, output text) -> ChatOutput. */
function throughFlow(name: string, type: string, template: Record<string, unknown>) {
  const node = (id: string, nodeType: string, fields: Record<string, unknown> = {}) => ({ id, type: 'genericNode', data: { id, type: nodeType, node: { display_name: id, template: fields } } });
  const edge = (source: string, output: string, target: string, field: string) => ({ source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, fieldName: field } } });
  return {
    name,
    data: {
      nodes: [node('ChatInput-in', 'ChatInput'), node(`${type}-mid`, type, template), node('ChatOutput-out', 'ChatOutput')],
      edges: [edge('ChatInput-in', 'message', `${type}-mid`, 'input_value'), edge(`${type}-mid`, 'text', 'ChatOutput-out', 'input_value')],
    },
  };
}

export async function customComponentsScenario(seconds: number): Promise<Row[]> {
  const service = await startService({ FLOWSVC_STORE_SYNC: 'off', FLOWSVC_CUSTOM_COMPONENTS: 'true' });
  const headers = { 'x-api-key': BENCH_API_KEY };
  const native = await createFlow(service.url, throughFlow('native echo', 'TextOutput', {}));
  const custom = await createFlow(service.url, throughFlow('custom echo', 'CustomEcho', { code: { value: ECHO_SOURCE } }));
  const warm = { seconds, warmupSeconds: 2 };
  const nativeLoad = await load({ url: `${service.url}/api/v1/run/${native}`, method: 'POST', headers, body: BODY, ...warm });
  const customLoad = await load({ url: `${service.url}/api/v1/run/${custom}`, method: 'POST', headers, body: BODY, ...warm });
  const [nativeMs, customMs] = await alternatingMs([native, custom].map((id) => `${service.url}/api/v1/run/${id}`), 8, 60);
  await service.stop();

  const sandbox = await sandboxCosts();
  const base = { scenario: 'custom-components', baselineName: 'native TextOutput in its place' };
  const kept = { scenario: 'custom-components', baselineName: 'a run in a kept sandbox' };
  const ratio = customLoad.rps / nativeLoad.rps;
  return [
    { ...base, measure: 'custom echo flow req/s (50 conns, sync off)', value: customLoad.rps, unit: 'req/s', baseline: nativeLoad.rps, ratio, target: '>= 0.5', pass: ratio >= 0.5 },
    { ...base, measure: 'custom echo flow p99', value: customLoad.p99, unit: 'ms', baseline: nativeLoad.p99 },
    { ...base, measure: 'custom echo flow, one connection', value: customMs, unit: 'ms/run', baseline: nativeMs, ratio: customMs / nativeMs },
    { ...kept, measure: 'new engine + sandbox (context, module) + one run', value: sandbox.engineMs * 1000, unit: 'us', baseline: sandbox.reuseMs * 1000, ratio: sandbox.engineMs / sandbox.reuseMs },
    { ...kept, measure: 'new sandbox in a spare engine + one run', value: sandbox.spareMs * 1000, unit: 'us', baseline: sandbox.reuseMs * 1000, ratio: sandbox.spareMs / sandbox.reuseMs },
  ];
}

/**
 * Mean milliseconds of one run in: a new engine and sandbox; a new sandbox in a spare engine (what the pool does once
 * engines have been freed); a kept sandbox (the pool's reuse). Measured in this process, on the component itself.
 */
async function sandboxCosts(): Promise<{ engineMs: number; spareMs: number; reuseMs: number }> {
  const limits = { cpuMs: 500, memoryMb: 64 };
  const source = compileSource(ECHO_SOURCE);
  if (!source.ok) throw new Error('the echo source does not compile');
  const inputs = JSON.stringify({ input_value: { text: 'hello' } });
  const once = async (engine: EngineInstance) => {
    const sandbox = new Sandbox(engine, source.script, limits);
    await sandbox.run(inputs, '{}');
    return sandbox.dispose();
  };
  const mean = async (count: number, work: () => Promise<unknown>) => {
    for (let i = 0; i < Math.min(count, 20); i++) await work();
    const started = performance.now();
    for (let i = 0; i < count; i++) await work();
    return (performance.now() - started) / count;
  };
  const engineMs = await mean(30, async () => once(await newEngineInstance(limits.memoryMb)));
  const spare = await newEngineInstance(limits.memoryMb);
  const spareMs = await mean(200, () => once(spare));

  const customs = new CustomComponents(limits);
  await customs.start();
  const echo = customs.componentOf(ECHO_SOURCE);
  const ctx = {
    signal: new AbortController().signal,
    run: { flowId: 'f', flowName: 'f', sessionId: 's', userId: 'kept', vertexId: 'v', displayName: 'Custom Echo' },
    requested: new Set(['text']),
  } as unknown as ComponentContext;
  const reuseMs = await mean(5000, () => echo.run({ input_value: { kind: 'message', text: 'hello' } } as never, ctx));
  customs.close();
  return { engineMs, spareMs, reuseMs };
}
