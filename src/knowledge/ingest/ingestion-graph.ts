/**
 * An ingestion as the run lifecycle executes it: a graph of one vertex whose component does the ingestion, so the
 * job gets what every run gets (a queue slot, the job timeout, cancellation through its AbortSignal, the records of
 * what ran) without a lifecycle of its own. The component is made per ingestion and never registered: no flow can
 * name it.
 */
import { defineComponent, type ComponentContext } from '../../components/contract.js';
import { indexEdges, type FlowGraph, type GraphVertex } from '../../engine/graph.js';
import { planRun, type RunPlan } from '../../engine/plan.js';

const VERTEX_ID = 'KnowledgeIngestion';

export function ingestionGraph(work: (ctx: ComponentContext) => Promise<Record<string, unknown>>): { graph: FlowGraph; plan: RunPlan } {
  const component = defineComponent({
    type: 'KnowledgeIngestion',
    version: 1,
    displayName: 'Knowledge Ingestion',
    description: 'Ingests files into a knowledge base.',
    category: 'knowledge',
    icon: 'database',
    fields: {},
    outputs: [{ name: 'result', displayName: 'Result', types: ['Data'], method: 'ingest' }],
    run: async (_inputs, ctx) => ({ result: await work(ctx) }),
  });
  const vertex: GraphVertex = { id: VERTEX_ID, type: component.type, displayName: component.displayName, component, params: {}, variableFields: new Set(), dynamicFields: [] };
  const { incoming, outgoing } = indexEdges([VERTEX_ID], []);
  const graph: FlowGraph = { vertices: new Map([[VERTEX_ID, vertex]]), order: [VERTEX_ID], edges: [], incoming, outgoing };
  return { graph, plan: planRun(graph) };
}
