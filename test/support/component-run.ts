/**
 * Runs one component directly, the way the engine would (inputs resolved and coerced by resolveInputs), with an
 * in-memory message history: for table-driven component tests that need no server.
 */
import { randomUUID } from 'node:crypto';
import type { ComponentContext, ComponentDefinition, FieldMap, FileAccess, NetworkPolicy, SessionMemory } from '../../src/components/contract.js';
import type { GraphVertex } from '../../src/engine/graph.js';
import { resolveInputs } from '../../src/engine/resolve-inputs.js';
import { variableResolver } from '../../src/engine/variables.js';
import { createLogger } from '../../src/logger.js';
import type { MessageValue } from '../../src/values/message.js';

export interface MemoryStub extends SessionMemory {
  messages: MessageValue[];
}

/** A message history in an array, answering `recent` like the session actor does. */
export function memoryStub(messages: MessageValue[] = []): MemoryStub {
  return {
    messages,
    async store(message) {
      const stored = { ...message, id: randomUUID() };
      messages.push(stored);
      return stored;
    },
    async recent({ sessionId, limit, order, sender, senderName }) {
      const pool = messages.filter((m) => m.session_id === sessionId && (!sender || m.sender === sender) && (!senderName || m.sender_name === senderName));
      const newest = pool.slice(-limit);
      return order === 'DESC' ? newest.reverse() : newest;
    },
  };
}

export interface RunOptions {
  /** Values arriving on edges, by field name. */
  edges?: Record<string, unknown>;
  /** Outputs to compute (default: all). */
  requested?: string[];
  signal?: AbortSignal;
  memory?: SessionMemory;
  files?: FileAccess;
  /** Unset, private addresses are refused (the stand-in servers on 127.0.0.1 need PRIVATE_NETWORK_ALLOWED). */
  network?: NetworkPolicy;
  sessionId?: string;
}

/** For tests whose stand-in servers listen on 127.0.0.1: the opt-in FLOWSVC_ALLOW_PRIVATE_NETWORK=true gives a service. */
export const PRIVATE_NETWORK_ALLOWED: NetworkPolicy = { allowPrivateNetwork: true };

export function contextFor(component: ComponentDefinition<any>, options: RunOptions = {}): Omit<ComponentContext, 'dynamic'> {
  return {
    signal: options.signal ?? new AbortController().signal,
    emit: () => {},
    logger: createLogger('silent'),
    run: { flowId: 'flow-1', flowName: 'test', sessionId: options.sessionId ?? 'session-1', userId: 'user-1', vertexId: `${component.type}-test1`, displayName: component.displayName },
    variable: async (name) => {
      throw new Error(`no variable ${name} in component tests`);
    },
    memory: options.memory ?? memoryStub(),
    sourceOf: () => undefined,
    requested: new Set(options.requested ?? component.outputs.map((o: { name: string }) => o.name)),
    files: options.files,
    network: options.network,
  };
}

/** Resolves `params` (node values) and `options.edges` like the engine, then runs the component. */
export async function runComponent(component: ComponentDefinition<any>, params: Record<string, unknown> = {}, options: RunOptions = {}): Promise<Record<string, any>> {
  const definition = component as ComponentDefinition<FieldMap>;
  const edges = options.edges ?? {};
  const vertex: GraphVertex = {
    id: `${component.type}-test1`,
    type: component.type,
    displayName: component.displayName,
    component: definition,
    params,
    variableFields: new Set(),
    dynamicFields: Object.keys({ ...params, ...edges }).filter((name) => !(name in definition.fields)),
  };
  const { inputs, dynamic } = await resolveInputs(vertex, edges, undefined, variableResolver({}));
  return definition.run(inputs as never, { ...contextFor(component, options), dynamic });
}
