/** An exported flow file (Langflow's export, or the flow's `data` alone) read for `flowsvc run`: checked, never stored. */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { FlowRecord } from '../../protocol/flow.schema.js';
import { UsageError } from './cli-args.js';

const FlowData = z.object({ nodes: z.array(z.unknown()), edges: z.array(z.unknown()) }).loose();

/** A whole export ({id, name, data}) or its data alone; an id or name that is not a string is ignored, as before. */
const FlowFile = z.union([
  z.object({ id: z.string().optional().catch(undefined), name: z.string().optional().catch(undefined), data: FlowData }).loose(),
  FlowData.transform((data) => ({ id: undefined, name: undefined, data })),
]);

/** The flow in `file`; a missing or unreadable file, or one that is not a flow's JSON, is a UsageError. */
export function readFlowFile(file: string): FlowRecord {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${file}: ${code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    // JSON.parse quotes the start of the text, newlines included: the message stays one line.
    throw new UsageError(`${file} is not JSON (${(error as Error).message.replace(/\s+/g, ' ')})`);
  }
  const parsed = FlowFile.safeParse(json);
  if (!parsed.success) throw new UsageError(`${file} is not an exported flow: expected an object with "data": {"nodes": [...], "edges": [...]}`);
  return storedShape(parsed.data);
}

/** A flow record for an export file that was never stored. */
function storedShape(exported: { id?: string; name?: string; data: Record<string, unknown> }): FlowRecord {
  const now = new Date().toISOString();
  return {
    id: exported.id ?? randomUUID(),
    name: exported.name ?? 'flow',
    description: null, icon: null, icon_bg_color: null, gradient: null,
    data: exported.data,
    is_component: false, updated_at: now, webhook: false, endpoint_name: null, tags: [], locked: false,
    mcp_enabled: false, action_name: null, action_description: null, access_type: 'PRIVATE',
    user_id: 'cli', folder_id: null, fs_path: null,
  };
}
