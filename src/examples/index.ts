/**
 * Our shipped example flows (examples/ at the repository's root, Langflow's export format, written for flowsvc; the
 * README's quick start uploads one). They are served from memory, never stored: owner-less (`user_id: null`) and
 * filed under a virtual "Starter Projects" folder that has a fixed id. They back `GET /api/v1/flows/basic_examples`,
 * `GET /api/v1/starter-projects`, and, as Langflow does with owner-less flows under auto-login, appear read-only in
 * users' flow listings.
 */
import { z } from 'zod';
import { FlowCreate, type FlowRecord, type GraphDump } from '../../protocol/flow.schema.js';
import { hasWebhookNode } from '../services/flow-data.js';
import basicPrompting from '../../examples/basic-prompting.json' with { type: 'json' };
import echo from '../../examples/echo.json' with { type: 'json' };

export const STARTER_FOLDER_ID = '00000000-0000-4000-8000-00000000f01d';
export const STARTER_FOLDER_NAME = 'Starter Projects';
/** A fixed timestamp keeps example records identical across restarts and instances. */
const SHIPPED_AT = '2025-01-01T00:00:00.000Z';

const ExampleFile = FlowCreate.extend({ id: z.string().uuid(), data: z.record(z.string(), z.unknown()) });

export class ExampleFlows {
  private readonly records: FlowRecord[];

  constructor(files: unknown[] = [echo, basicPrompting]) {
    this.records = files.map((file) => toRecord(ExampleFile.parse(file)));
  }

  /** Fresh copies, so a caller that edits one cannot change what everybody else sees. */
  all(): FlowRecord[] {
    return structuredClone(this.records);
  }

  get(id: string): FlowRecord | undefined {
    const found = this.records.find((flow) => flow.id === id);
    return found && structuredClone(found);
  }

  /** Langflow's GraphDump of each example (`GET /api/v1/starter-projects`). */
  graphs(): GraphDump[] {
    return this.all().map((flow) => ({
      data: flow.data,
      is_component: flow.is_component,
      name: flow.name,
      description: flow.description,
      endpoint_name: flow.endpoint_name,
    }));
  }
}

function toRecord(file: z.infer<typeof ExampleFile>): FlowRecord {
  return {
    id: file.id,
    name: file.name,
    description: file.description ?? null,
    icon: file.icon ?? null,
    icon_bg_color: file.icon_bg_color ?? null,
    gradient: file.gradient ?? null,
    data: file.data,
    is_component: file.is_component ?? false,
    updated_at: SHIPPED_AT,
    created_at: SHIPPED_AT,
    webhook: hasWebhookNode(file.data),
    endpoint_name: file.endpoint_name ?? null,
    tags: file.tags ?? [],
    locked: file.locked ?? false,
    mcp_enabled: file.mcp_enabled ?? false,
    action_name: file.action_name ?? null,
    action_description: file.action_description ?? null,
    access_type: file.access_type ?? 'PRIVATE',
    user_id: null,
    folder_id: STARTER_FOLDER_ID,
    fs_path: null,
  };
}
