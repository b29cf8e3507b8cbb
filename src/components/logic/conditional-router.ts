/**
 * If-Else (ConditionalRouter): compares a text with another and sends a message down the True or the False
 * output. The other output is left undefined, so the engine skips the branch hanging off it.
 */
import { createMessage, isMessage } from '../../values/message.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { bool, choice, int, message, text } from '../fields.js';
import { ConditionError, evaluate, OPERATORS } from './condition.js';

const FIELD_LABELS = { input_text: 'Text Input', match_text: 'Match Text' } as const;

export const conditionalRouter = defineComponent({
  type: 'ConditionalRouter',
  version: 1,
  displayName: 'If-Else',
  description: 'Routes an input message to a corresponding output based on text comparison.',
  category: 'logic',
  icon: 'split',
  fields: {
    input_text: text({ displayName: 'Text Input', info: 'The primary text input for the operation.', required: true }),
    operator: choice({ displayName: 'Operator', info: 'The operator to apply for comparing the texts.', options: OPERATORS }),
    match_text: text({ displayName: 'Match Text', info: 'The text input to compare against.', required: true }),
    case_sensitive: bool({ displayName: 'Case Sensitive', info: 'If true, the comparison will be case sensitive.', value: true, advanced: true }),
    true_case_message: message({ displayName: 'Case True', info: 'The message to pass if the condition is True.', advanced: true }),
    false_case_message: message({ displayName: 'Case False', info: 'The message to pass if the condition is False.', advanced: true }),
    max_iterations: int({ displayName: 'Max Iterations', info: 'The maximum number of iterations for the conditional router.', value: 10, advanced: true }),
    default_route: choice({ displayName: 'Default Route', info: 'The default route to take when max iterations are reached.', options: ['true_result', 'false_result'], value: 'false_result', advanced: true }),
  },
  outputs: [
    { name: 'true_result', displayName: 'True', types: ['Message'], method: 'true_response' },
    { name: 'false_result', displayName: 'False', types: ['Message'], method: 'false_response' },
  ],
  async run(inputs, ctx) {
    let result: boolean;
    try {
      result = evaluate(inputs.input_text, inputs.match_text, inputs.operator, inputs.case_sensitive);
    } catch (error) {
      if (error instanceof ConditionError) throw new ComponentError(`Field "${FIELD_LABELS[error.field]}" (${error.field}): ${error.message}`);
      throw error;
    }
    // Without a case message, the input text goes through (a router is most often used to pass the text on).
    const chosen = result ? inputs.true_case_message : inputs.false_case_message;
    const outgoing = isMessage(chosen) ? chosen : createMessage({ text: inputs.input_text, session_id: ctx.run.sessionId, flow_id: ctx.run.flowId });
    return result ? { true_result: outgoing, false_result: undefined } : { true_result: undefined, false_result: outgoing };
  },
});
