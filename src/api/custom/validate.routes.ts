/**
 * POST /api/v1/validate/code and /validate/prompt, in Langflow's shapes. Code validation needs a signed-in caller
 * and never runs the code outside the sandbox: syntax and imports are read without running anything, and the
 * definition is described in a sandbox only where custom components are allowed.
 */
import { CodeRequest, CodeValidationResponse, PromptValidationResponse, ValidatePromptRequest } from '../../../protocol/custom-component.schema.js';
import { compilePrompt } from '../../components/prompts/prompt-template.js';
import { TemplateSyntaxError } from '../../components/shared/python-format.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError } from '../../errors/index.js';
import { codeValidation } from '../../langflow/code-validation.js';
import { withPromptVariables } from '../../langflow/prompt-variables.js';
import type { Services } from '../../services/services.js';
import { FlowValidationQuery, FlowValidationReport, FlowValidationRequest } from '../../../protocol/flow-validation.schema.js';
import { validateFlow } from '../../langflow/flow-validation.js';
import { headerVariables } from '../run/global-vars.js';

export const NOT_ALLOWED = 'custom components are not allowed on this server (FLOWSVC_CUSTOM_COMPONENTS=true allows them)';

export function validateRoutes(services: Services): Route[] {
  const { customComponents, config, runner } = services;
  const models = { language: config.DEFAULT_MODEL, embedding: config.DEFAULT_EMBEDDING_MODEL };
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/validate/flow',
      summary: 'Check a flow without running it, in levels: 1 structure, 2 component types, 3 edge types, 4 required inputs, variables (yours) and default models',
      tags: ['Validate'],
      auth: 'user',
      query: FlowValidationQuery,
      body: FlowValidationRequest,
      responses: { 200: { description: 'The report: ok when no level found an error', schema: FlowValidationReport } },
      handler: ({ body, query, principal, headers }) => {
        const variables = runner.variablesFor(principal!.userId, headerVariables(headers));
        return validateFlow(body, query.level, { variable: (name) => variables.resolve(name), models, customs: runner.customs });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/validate/code',
      summary: 'Check a custom component source: syntax (with line and column), imports, and the shape of its definition',
      tags: ['Validate'],
      auth: 'user',
      body: CodeRequest,
      responses: { 200: { description: 'The problems found (empty lists: none)', schema: CodeValidationResponse } },
      handler: ({ body }) => {
        if (config.CUSTOM_COMPONENTS) return codeValidation(customComponents.inspect(body.code));
        const report = customComponents.checkStatically(body.code);
        // The definition is not described where custom code may not run; saying so beats a silent pass.
        return codeValidation({ ...report, definition: report.syntax || report.imports.length ? [] : [`the definition was not checked: ${NOT_ALLOWED}`] });
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/validate/prompt',
      summary: "A prompt template's variables, and its node with one field per variable",
      tags: ['Validate'],
      auth: 'user',
      body: ValidatePromptRequest,
      responses: { 200: { description: 'The variables and the updated node', schema: PromptValidationResponse } },
      handler: ({ body }) => {
        let variables: string[];
        try {
          variables = compilePrompt(body.template, body.mustache).variables;
        } catch (error) {
          if (error instanceof TemplateSyntaxError) throw new BadRequestError(error.message);
          throw error;
        }
        return { input_variables: variables, frontend_node: body.frontend_node ? withPromptVariables(body.frontend_node, body.name, variables) : null };
      },
    }),
  ];
}
