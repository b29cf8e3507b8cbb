/**
 * Custom components against native ones, in the same run: a flow whose middle node is a custom echo (TypeScript, in
 * the QuickJS sandbox) against the same flow with the native TextOutput in its place, under load (50 connections)
 * and one run at a time, on one service (FLOWSVC_STORE_SYNC=off: what differs is CPU, not flush waits). Then the
 * sandbox itself, in this process: making a sandbox (engine instance, context, module) against running in a kept one.
 */
import { CustomComponents } from '../../src/components/custom/custom-components.js';
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
  const ratio = customLoad.rps / nativeLoad.rps;
  return [
    { ...base, measure: 'custom echo flow req/s (50 conns, sync off)', value: customLoad.rps, unit: 'req/s', baseline: nativeLoad.rps, ratio, target: '>= 0.5', pass: ratio >= 0.5 },
    { ...base, measure: 'custom echo flow p99', value: customLoad.p99, unit: 'ms', baseline: nativeLoad.p99 },
    { ...base, measure: 'custom echo flow, one connection', value: customMs, unit: 'ms/run', baseline: nativeMs, ratio: customMs / nativeMs },
    { scenario: 'custom-components', measure: 'new sandbox (engine, context, module) + one run', value: sandbox.createMs * 1000, unit: 'us', baseline: sandbox.reuseMs * 1000, baselineName: 'a run in a kept sandbox', ratio: sandbox.createMs / sandbox.reuseMs },
  ];
}

/** Mean milliseconds of a run in a new sandbox, and in a kept one (the pool's reuse), in this process. */
async function sandboxCosts(): Promise<{ createMs: number; reuseMs: number }> {
  const customs = new CustomComponents({ cpuMs: 500, memoryMb: 64 });
  await customs.start();
  const echo = customs.componentOf(ECHO_SOURCE);
  const ctx = (userId: string): ComponentContext =>
    ({
      signal: new AbortController().signal,
      run: { flowId: 'f', flowName: 'f', sessionId: 's', userId, vertexId: 'v', displayName: 'Custom Echo' },
      requested: new Set(['text']),
    }) as unknown as ComponentContext;
  const inputs = { input_value: { kind: 'message', text: 'hello' } } as never;
  // Each new caller gets a new sandbox (pools are per caller); the same caller reuses its one.
  for (let i = 0; i < 20; i++) await echo.run(inputs, ctx(`warm-${i}`));
  const fresh = 100;
  let started = performance.now();
  for (let i = 0; i < fresh; i++) await echo.run(inputs, ctx(`fresh-${i}`));
  const createMs = (performance.now() - started) / fresh;
  for (let i = 0; i < 200; i++) await echo.run(inputs, ctx('kept'));
  const reused = 5000;
  started = performance.now();
  for (let i = 0; i < reused; i++) await echo.run(inputs, ctx('kept'));
  const reuseMs = (performance.now() - started) / reused;
  customs.close();
  return { createMs, reuseMs };
}
