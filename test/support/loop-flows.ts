/**
 * Flows in the shape of Langflow's Research Translation Loop starter (its Loop, Parser and Language Model nodes with
 * the starter's own field values, and its loop edge as Langflow marks it: a target handle naming the Loop's `item`
 * output), fed by Chat Input -> Type Convert (a JSON list of papers as a table) where the starter has arXiv, a
 * hosted service tests never reach.
 */
import { edge, flow, node } from './langflow-json.js';
import { openaiModelTemplate } from './model-flows.js';

export const LOOP = 'LoopComponent-GtPZT';
export const PARSER = 'ParserComponent-pXAMb';
export const MODEL = 'LanguageModelComponent-XKvly';
export const CONVERT = 'TypeConverterComponent-papr1';
export const OUTPUT = 'ChatOutput-YAED9';

/** The loop edge as Langflow's exports hold it: the target handle has the loop output's `name`, no `fieldName`. */
export function loopEdge(source: string, output: string, target: string, targetOutput = 'item') {
  return {
    id: `reactflow__edge-${source}${output}-${target}${targetOutput}`,
    source,
    target,
    data: {
      sourceHandle: { id: source, name: output, dataType: source.split('-')[0], output_types: ['Message'] },
      targetHandle: { id: target, name: targetOutput, dataType: target.split('-')[0], output_types: ['Data', 'Message'] },
    },
  };
}

/** The papers a run iterates over, as the JSON text given to Chat Input. */
export const papers = (count: number) => JSON.stringify(Array.from({ length: count }, (_, n) => ({ title: `Paper ${n + 1}`, summary: `Finding number ${n + 1}.` })));

export function researchLoopFlow(name = 'Research Translation Loop', extra: { nodes?: unknown[]; edges?: unknown[] } = {}) {
  return flow(
    name,
    [
      node('ChatInput-nr0Vp', 'ChatInput', {}, 'Chat Input'),
      node(CONVERT, 'TypeConverterComponent', { output_type: 'DataFrame', auto_parse: true }, 'Type Convert'),
      node(LOOP, 'LoopComponent', {}, 'Loop'),
      node(PARSER, 'ParserComponent', { mode: 'Parser', pattern: 'Title: {title}\nSummary: {summary}', sep: '\n' }, 'Parser'),
      node(MODEL, 'LanguageModelComponent', openaiModelTemplate({ system_message: 'Translate to Portuguese.', temperature: 0.1 }), 'Language Model'),
      node(OUTPUT, 'ChatOutput', { data_template: '{text}', clean_data: true }, 'Chat Output'),
      ...(extra.nodes ?? []),
    ],
    [
      edge('ChatInput-nr0Vp', 'message', CONVERT, 'input_data'),
      edge(CONVERT, 'dataframe_output', LOOP, 'data'),
      edge(LOOP, 'item', PARSER, 'input_data'),
      edge(PARSER, 'parsed_text', MODEL, 'input_value'),
      loopEdge(MODEL, 'text_output', LOOP),
      edge(LOOP, 'done', OUTPUT, 'input_value'),
      ...(extra.edges ?? []),
    ],
  );
}
