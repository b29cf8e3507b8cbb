/**
 * A loop's cost per iteration against a run's: one /api/v1/run of a Loop over 1,000 items whose body is an echo
 * chain (Parser -> Type Convert, back into the loop), against the same chain (Type Convert -> Parser between Chat
 * Input and Chat Output) run 1,000 times through /api/v1/run, one after another, in the same service. An
 * iteration's cost is the 1,000-item run less a 1-item run, over 999 (what every run pays once cancels out).
 * Medians of alternating rounds (drift on the shared machine hits both alike); target: an iteration costs at most
 * a tenth of a run. With FLOWSVC_STORE_SYNC=off: with the default a run waits for its messages' fsync, which on a
 * shared disk is most of a run and would flatter the loop (its messages are stored once, not per iteration).
 */
import { startService } from '../support/processes.js';
import type { Row } from '../support/report.js';
import { createFlow, median, runOnce } from '../support/runs.js';

const ITEMS = 1000;
const ROUNDS = 5;
const TARGET = 0.1;

const node = (id: string, type: string, values: Record<string, unknown> = {}) => ({
  id,
  type: 'genericNode',
  data: { id, type, node: { display_name: id, template: Object.fromEntries(Object.entries(values).map(([k, v]) => [k, { value: v }])) } },
});
const edge = (source: string, output: string, target: string, field: string) => ({ source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, fieldName: field } } });
const loopEdge = (source: string, output: string, target: string) => ({ source, target, data: { sourceHandle: { id: source, name: output }, targetHandle: { id: target, name: 'item' } } });

const loopFlow = {
  name: 'bench loop',
  data: {
    nodes: [
      node('ChatInput-in', 'ChatInput'),
      node('TypeConverterComponent-rows', 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }),
      node('LoopComponent-loop', 'LoopComponent'),
      node('ParserComponent-body', 'ParserComponent', { mode: 'Parser', pattern: '{text}' }),
      node('TypeConverterComponent-body', 'TypeConverterComponent', { output_type: 'Message' }),
      node('ChatOutput-out', 'ChatOutput'),
    ],
    edges: [
      edge('ChatInput-in', 'message', 'TypeConverterComponent-rows', 'input_data'),
      edge('TypeConverterComponent-rows', 'dataframe_output', 'LoopComponent-loop', 'data'),
      edge('LoopComponent-loop', 'item', 'ParserComponent-body', 'input_data'),
      edge('ParserComponent-body', 'parsed_text', 'TypeConverterComponent-body', 'input_data'),
      loopEdge('TypeConverterComponent-body', 'message_output', 'LoopComponent-loop'),
      edge('LoopComponent-loop', 'done', 'ChatOutput-out', 'input_value'),
    ],
  },
};

const chainFlow = {
  name: 'bench loop body as a run',
  data: {
    nodes: [node('ChatInput-in', 'ChatInput'), node('TypeConverterComponent-data', 'TypeConverterComponent', { output_type: 'Data' }), node('ParserComponent-body', 'ParserComponent', { mode: 'Parser', pattern: '{text}' }), node('ChatOutput-out', 'ChatOutput')],
    edges: [edge('ChatInput-in', 'message', 'TypeConverterComponent-data', 'input_data'), edge('TypeConverterComponent-data', 'data_output', 'ParserComponent-body', 'input_data'), edge('ParserComponent-body', 'parsed_text', 'ChatOutput-out', 'input_value')],
  },
};

const itemsBody = (count: number) => JSON.stringify({ input_value: JSON.stringify(Array.from({ length: count }, (_, n) => ({ text: `item ${n}` }))), session_id: 'bench' });

async function timed(task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await task();
  return performance.now() - started;
}

export async function loopScenario(): Promise<Row[]> {
  const service = await startService({ FLOWSVC_STORE_SYNC: 'off' });
  try {
    const loopUrl = `${service.url}/api/v1/run/${await createFlow(service.url, loopFlow)}`;
    const chainUrl = `${service.url}/api/v1/run/${await createFlow(service.url, chainFlow)}`;
    const many = itemsBody(ITEMS);
    const one = itemsBody(1);
    const reply = JSON.stringify(await runOnce(loopUrl, many));
    if (!reply.includes(`item ${ITEMS - 1}`)) throw new Error('the loop did not carry its last item to done');
    const runs = async () => {
      for (let i = 0; i < ITEMS; i++) await runOnce(chainUrl);
    };
    await runs();
    const perIteration: number[] = [];
    const perRun: number[] = [];
    const fulls: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const full = await timed(() => runOnce(loopUrl, many));
      const single = await timed(() => runOnce(loopUrl, one));
      fulls.push(full);
      perIteration.push((full - single) / (ITEMS - 1));
      perRun.push((await timed(runs)) / ITEMS);
    }
    const iteration = median(perIteration);
    const run = median(perRun);
    const ratio = iteration / run;
    return [
      { scenario: 'loop', measure: `loop over ${ITEMS} items (echo chain), per iteration`, value: iteration * 1000, unit: 'us', baseline: run * 1000, baselineName: `the chain run ${ITEMS} times via /api/v1/run, per run, store sync off`, ratio, target: `<= ${TARGET}`, pass: ratio <= TARGET },
      { scenario: 'loop', measure: `one run of the ${ITEMS}-item loop`, value: median(fulls), unit: 'ms' },
    ];
  } finally {
    await service.stop();
  }
}
