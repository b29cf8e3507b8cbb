/**
 * Prompt (Langflow 1.6 "Prompt", 1.8 "Prompt Template"): fills a template's variables, which the editor turns into
 * fields of their own (fed by edges or typed in); a variable with neither is an empty string.
 */
import { createMessage, type MessageValue } from '../../values/message.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, prompt, text } from '../fields.js';
import { TemplateSyntaxError } from '../shared/python-format.js';
import { compilePrompt } from './prompt-template.js';

/** The Message a Prompt produces also keeps what made it, as Langflow's does (`template`, `variables`). */
export interface PromptMessage extends MessageValue {
  template: string;
  variables: Record<string, string>;
}

export const promptComponent = defineComponent({
  type: 'Prompt',
  aliases: ['Prompt Template'],
  version: 1,
  displayName: 'Prompt',
  description: 'Create a prompt template with dynamic variables.',
  category: 'prompts',
  icon: 'braces',
  fields: {
    template: prompt({ displayName: 'Template' }),
    use_double_brackets: bool({ displayName: 'Use Double Brackets', info: 'Use {{variable}} syntax instead of {variable}.', advanced: true }),
    tool_placeholder: text({ displayName: 'Tool Placeholder', info: 'A placeholder input for tool mode.', advanced: true, toolMode: true }),
  },
  outputs: [{ name: 'prompt', displayName: 'Prompt', types: ['Message'], method: 'build_prompt' }],
  dynamicFields: 'text',
  async run(inputs, ctx) {
    try {
      const compiled = compilePrompt(inputs.template, inputs.use_double_brackets);
      const variables: Record<string, string> = {};
      for (const name of compiled.variables) {
        const value = ctx.dynamic[name];
        variables[name] = typeof value === 'string' ? value : '';
      }
      const message: PromptMessage = { ...createMessage({ text: compiled.render((name) => variables[name]) }), template: inputs.template, variables };
      return { prompt: message };
    } catch (error) {
      if (error instanceof TemplateSyntaxError) throw new ComponentError(`Field "Template" (template): ${error.message}`);
      throw error;
    }
  },
});
