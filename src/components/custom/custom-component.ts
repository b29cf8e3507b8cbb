/** A described custom component as a ComponentDefinition: the engine runs it like a native one, in a sandbox. */
import { ComponentError } from '../component.error.js';
import type { ComponentDefinition, FieldMap } from '../contract.js';
import { fieldSpecs, type CustomDefinition } from './custom-definition.js';
import { inputsJson, outputsOf } from './custom-values.js';
import { hostCallsFor, type Capabilities } from './host-capabilities.js';
import type { SandboxPool } from './sandbox-pool.js';
import { SandboxCodeError } from './sandbox.js';
import { SandboxLimitError } from './sandbox-limits.js';

/** The /api/v1/all category of custom components (Langflow lists its own under the same name). */
export const CUSTOM_CATEGORY = 'custom_components';

export interface CompiledComponent {
  definition: CustomDefinition;
  script: string;
  hash: string;
}

/** The component's type key: its display name in PascalCase, as Langflow names a component by its class. */
export function customTypeName(displayName: string): string {
  const words = displayName.match(/[A-Za-z0-9]+/g) ?? [];
  const name = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
  return /^[A-Za-z]/.test(name) ? name : `Custom${name}`;
}

export function customComponent(compiled: CompiledComponent, pool: SandboxPool, capabilities: Capabilities): ComponentDefinition<FieldMap> {
  const { definition, script, hash } = compiled;
  const outputs = definition.outputs.map((output) => ({ name: output.name, displayName: output.displayName ?? output.name, types: output.types, method: output.name }));
  return {
    type: customTypeName(definition.displayName),
    version: 1,
    displayName: definition.displayName,
    description: definition.description,
    category: CUSTOM_CATEGORY,
    icon: definition.icon,
    fields: fieldSpecs(definition),
    outputs,
    async run(inputs, ctx) {
      const context = JSON.stringify({ flowId: ctx.run.flowId, sessionId: ctx.run.sessionId, nodeId: ctx.run.vertexId });
      let result: unknown;
      try {
        // One caller's runs share sandboxes; another caller never sees what this one's module kept.
        result = await pool.run(`${ctx.run.userId}:${hash}`, script, inputsJson(inputs), context, ctx.signal, hostCallsFor(capabilities, ctx));
      } catch (error) {
        if (error instanceof SandboxLimitError) throw new ComponentError(`custom component ${error.message}`, { cause: error });
        if (error instanceof SandboxCodeError) throw new ComponentError(error.message, { cause: error });
        throw error;
      }
      return outputsOf(result, outputs, ctx);
    },
  };
}
