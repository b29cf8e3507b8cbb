/**
 * A flow with nodes this service cannot run (unknown types, types we know of and do not run, custom code not
 * allowed): one 400 listing every such node and why, so a caller learns all that is missing in one round trip. The
 * list also goes beside `detail` as `unsupported_nodes`.
 */
import { FlowInvalidError } from './flow-invalid.error.js';

export interface UnrunnableNode {
  id: string;
  type: string;
  display_name: string;
  reason: string;
}

export const describeUnrunnable = (node: UnrunnableNode) => `${node.id} (${node.type}, "${node.display_name}"): ${node.reason}`;

/** Past this many, the text names the first ones and says how many more `unsupported_nodes` lists. */
const LISTED_IN_TEXT = 50;

export class FlowUnsupportedError extends FlowInvalidError {
  override name = 'FlowUnsupportedError';
  constructor(readonly nodes: readonly UnrunnableNode[]) {
    const count = nodes.length === 1 ? 'A component' : `${nodes.length} components`;
    const listed = nodes.slice(0, LISTED_IN_TEXT).map(describeUnrunnable).join('; ');
    const more = nodes.length > LISTED_IN_TEXT ? `; and ${nodes.length - LISTED_IN_TEXT} more (see unsupported_nodes)` : '';
    super(`${count} of this flow cannot run here: ${listed}${more}`, nodes[0]?.id);
    this.fields = { unsupported_nodes: nodes };
  }
}
