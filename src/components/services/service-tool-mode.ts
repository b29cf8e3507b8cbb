/**
 * Tool mode for a hosted service's component: as withToolMode, and before the toolset is handed to an Agent the
 * component's own check runs (its API key). A missing key then fails the run with its 400, before the model is
 * asked anything; what fails once the model calls the tool (a 401, a timeout) goes back to the model as the tool's
 * result instead, as Langflow does.
 */
import type { ComponentContext, ComponentDefinition, FieldMap, InputsOf } from '../contract.js';
import { TOOL_OUTPUT, withToolMode } from '../tools/tool-mode.js';

export function withServiceToolMode<F extends FieldMap>(
  definition: ComponentDefinition<F>,
  checkBeforeToolset: (inputs: InputsOf<F>, ctx: ComponentContext) => Promise<unknown>,
): ComponentDefinition<F> {
  const wrapped = withToolMode(definition);
  return {
    ...wrapped,
    async run(inputs, ctx) {
      if (ctx.requested.has(TOOL_OUTPUT.name)) await checkBeforeToolset(inputs, ctx);
      return wrapped.run(inputs, ctx);
    },
  };
}
