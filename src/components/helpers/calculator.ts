/** Calculator: evaluates an arithmetic expression; the result is printed like Langflow's (six decimals at most). */
import { createData } from '../../values/data.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { text } from '../fields.js';
import { ArithmeticError, evaluateExpression } from './arithmetic.js';

export const calculator = defineComponent({
  type: 'CalculatorComponent',
  version: 1,
  displayName: 'Calculator',
  description: 'Perform basic arithmetic operations on a given expression.',
  category: 'helpers',
  icon: 'calculator',
  fields: {
    expression: text({ displayName: 'Expression', info: "The arithmetic expression to evaluate (e.g., '4*4*(33/22)+12-20').", toolMode: true }),
  },
  outputs: [{ name: 'result', displayName: 'Data', types: ['Data'], method: 'evaluate_expression' }],
  async run(inputs) {
    try {
      return { result: createData({ result: formatResult(evaluateExpression(inputs.expression)) }) };
    } catch (error) {
      if (error instanceof ArithmeticError) throw new ComponentError(`Field "Expression" (expression): ${error.message} in ${JSON.stringify(inputs.expression)}`);
      throw error;
    }
  },
});

/** Python's f"{x:.6f}" with trailing zeros (and a bare point) removed: 16 -> "16", 1/3 -> "0.333333". */
export function formatResult(value: number): string {
  const fixed = value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
  return fixed === '-0' ? '0' : fixed;
}
