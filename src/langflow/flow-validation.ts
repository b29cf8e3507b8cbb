/**
 * Checks a flow without running it, in levels as Langflow's `lfx validate` does: 1 structure (a flow with nodes and
 * edges, ids unique, edges between existing nodes), 2 component types (every node runs here; the same list a run
 * would refuse), 3 edges (outputs and fields exist, types compatible), 4 required inputs, variables and models
 * (flow-requirements.ts). Level N runs levels 1 to N; past a structure that cannot be read nothing else runs.
 * `flowsvc validate` and `POST /api/v1/validate/flow` both answer this report.
 */
import type { ComponentDefinition } from '../components/contract.js';
import type { CustomComponentSource } from './custom-node.js';
import { FlowEdge, FlowJsonData, FlowNode, isComponentNode } from './flow-json.js';
import { checkRequirements, type RequirementSources } from './flow-requirements.js';
import { componentOf } from './to-graph.js';

export const LEVEL_NAMES = ['structure', 'component types', 'edge types', 'required inputs and variables'] as const;
export const MAX_LEVEL = LEVEL_NAMES.length;

export interface ValidationIssue {
  level: number;
  severity: 'error' | 'warning';
  node_id: string | null;
  node_name: string | null;
  message: string;
}

export interface ValidationReport {
  ok: boolean;
  /** The deepest level asked for. */
  level: number;
  levels: { level: number; name: string; checked: boolean; ok: boolean }[];
  issues: ValidationIssue[];
}

export interface ValidationSources extends RequirementSources {
  /** Custom code nodes compile where custom components are allowed; absent, they do not run. */
  customs?: CustomComponentSource;
}

/** A node as the checks see it: its component when it runs here. */
export interface CheckedNode {
  node: FlowNode;
  name: string;
  component?: ComponentDefinition;
}

/** A flow object, its `data`, or anything else (then level 1 says what is wrong). */
export async function validateFlow(flow: unknown, level: number, sources: ValidationSources): Promise<ValidationReport> {
  const issues: ValidationIssue[] = [];
  const issue = (at: number, node: CheckedNode | undefined, message: string, severity: ValidationIssue['severity'] = 'error') =>
    issues.push({ level: at, severity, node_id: node?.node.id ?? null, node_name: node?.name ?? null, message });
  const structure = readStructure(flow, issue);
  if (structure && level >= 2) checkComponents(structure.nodes, sources.customs, issue);
  if (structure && level >= 3) checkEdges(structure, issue);
  // A field fed by any edge is not missing, even from a node that cannot run (level 2 said so already).
  if (structure && level >= 4) await checkRequirements(structure.nodes, structure.edges, sources, (node, message) => issue(4, node, message));
  const levels = LEVEL_NAMES.map((name, index) => {
    const at = index + 1;
    const checked = at <= level && (at === 1 || structure !== undefined);
    return { level: at, name, checked, ok: checked && !issues.some((i) => i.level === at && i.severity === 'error') };
  });
  return { ok: !issues.some((i) => i.severity === 'error'), level, levels, issues };
}

type Issue = (level: number, node: CheckedNode | undefined, message: string, severity?: ValidationIssue['severity']) => void;

interface Structure {
  nodes: Map<string, CheckedNode>;
  edges: FlowEdge[];
}

function readStructure(flow: unknown, issue: Issue): Structure | undefined {
  const object = typeof flow === 'object' && flow !== null && !Array.isArray(flow) ? (flow as Record<string, unknown>) : undefined;
  const data = object && typeof object.data === 'object' && object.data !== null && !Array.isArray(object.nodes) ? object.data : object;
  const parsed = FlowJsonData.safeParse(data ?? null);
  if (!object || !parsed.success || !Array.isArray((data as Record<string, unknown>).nodes)) {
    issue(1, undefined, 'Not a flow: expected an object with "data": {"nodes": [...], "edges": [...]}');
    return undefined;
  }
  if (object.data !== undefined && typeof object.name !== 'string') issue(1, undefined, 'The flow has no "name"', 'warning');
  const nodes = new Map<string, CheckedNode>();
  parsed.data.nodes.forEach((raw, index) => {
    const node = FlowNode.safeParse(raw);
    if (!node.success) return issue(1, undefined, `Node ${index} has no "id"`);
    if (!isComponentNode(node.data)) return;
    const checked = { node: node.data, name: node.data.data?.node?.display_name ?? node.data.data?.type ?? node.data.id };
    if (nodes.has(node.data.id)) issue(1, checked, `Node ${node.data.id} appears twice`);
    nodes.set(node.data.id, checked);
  });
  const edges: FlowEdge[] = [];
  const linked = new Set<string>();
  parsed.data.edges.forEach((raw, index) => {
    const edge = FlowEdge.safeParse(raw);
    const source = edge.success ? (edge.data.data?.sourceHandle?.id ?? edge.data.source) : undefined;
    const target = edge.success ? (edge.data.data?.targetHandle?.id ?? edge.data.target) : undefined;
    const label = (edge.success && edge.data.id) || `${index}`;
    if (!edge.success || !source || !target || !edge.data.data?.sourceHandle?.name || !edge.data.data?.targetHandle) {
      return issue(1, undefined, `Edge ${label} has invalid handles: it needs data.sourceHandle {id, name} and data.targetHandle {id, fieldName}`);
    }
    for (const end of [source, target]) if (!nodes.has(end)) return issue(1, undefined, `Edge ${label} connects missing node "${end}"`);
    linked.add(source).add(target);
    edges.push(edge.data);
  });
  if (nodes.size > 1) for (const node of nodes.values()) if (!linked.has(node.node.id)) issue(1, node, `Node ${node.node.id} is connected to nothing`, 'warning');
  return { nodes, edges };
}

function checkComponents(nodes: Map<string, CheckedNode>, customs: CustomComponentSource | undefined, issue: Issue): void {
  for (const checked of nodes.values()) {
    const found = componentOf(checked.node, customs);
    if ('reason' in found) issue(2, checked, `${found.type}: ${found.reason}`);
    else checked.component = found;
  }
}

/** Edges between nodes that run here, each checked. */
function checkEdges({ nodes, edges }: Structure, issue: Issue): void {
  for (const edge of edges) {
    const source = nodes.get(edge.data!.sourceHandle!.id ?? edge.source!)!;
    const target = nodes.get(edge.data!.targetHandle!.id ?? edge.target!)!;
    if (!source.component || !target.component) continue;
    const problem = edgeProblem(source, target, edge);
    if (problem) issue(3, target, `Edge ${edge.id ?? `${source.node.id} -> ${target.node.id}`}: ${problem}`);
  }
}

function edgeProblem(source: CheckedNode, target: CheckedNode, edge: FlowEdge): string | undefined {
  const outputName = edge.data!.sourceHandle!.name!;
  const output = source.component!.outputs.find((o) => o.name === outputName);
  if (!output) return `${source.node.id} has no output "${outputName}"; it has ${source.component!.outputs.map((o) => `"${o.name}"`).join(', ') || 'none'}`;
  const fieldName = edge.data!.targetHandle!.fieldName;
  // A loop edge feeds an output of its target back (Langflow's loops).
  if (!fieldName) return target.component!.outputs.some((o) => o.name === edge.data!.targetHandle!.name) ? undefined : `it feeds ${target.node.id}, but names no field of it`;
  const field = target.component!.fields[fieldName];
  if (!field) return target.component!.dynamicFields ? undefined : `${target.node.id} has no field "${fieldName}"`;
  const accepted = field.inputTypes ?? [];
  if (accepted.length === 0 || output.types.some((type) => accepted.includes(type))) return undefined;
  return `output "${outputName}" of ${source.node.id} gives ${output.types.join(' or ')}, but field "${fieldName}" of ${target.node.id} takes ${accepted.join(', ')}`;
}
