/** The explicit list of every component the service knows. No directory scanning: add a line here. */
import type { ComponentDefinition, FieldMap } from './contract.js';
import { chatInput } from './io/chat-input.js';
import { chatOutput } from './io/chat-output.js';
import { textInput, textOutput } from './io/text-io.js';

export const COMPONENTS: readonly ComponentDefinition<FieldMap>[] = [chatInput, chatOutput, textInput, textOutput] as unknown as ComponentDefinition<FieldMap>[];

const byType = new Map<string, ComponentDefinition<FieldMap>>();
for (const component of COMPONENTS) {
  for (const key of [component.type, ...(component.aliases ?? [])]) {
    if (byType.has(key)) throw new Error(`component type ${key} is registered twice`);
    byType.set(key, component);
  }
}

/** The component for a Langflow `data.type` (or one of its aliases). */
export function findComponent(type: string): ComponentDefinition<FieldMap> | undefined {
  return byType.get(type);
}
