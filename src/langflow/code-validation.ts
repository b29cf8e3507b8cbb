/** A custom component source's report in Langflow's CodeValidationResponse shape. */
import type { CodeValidationResponse } from '../../protocol/custom-component.schema.js';
import type { SourceReport } from '../components/custom/custom-components.js';

export function codeValidation(report: Pick<SourceReport, 'imports' | 'syntax' | 'definition'>): CodeValidationResponse {
  const functionErrors: string[] = [];
  if (report.syntax) {
    const where = report.syntax.line ? ` (line ${report.syntax.line}, column ${report.syntax.column})` : '';
    functionErrors.push(`SyntaxError: ${report.syntax.message}${where}`);
  }
  functionErrors.push(...report.definition);
  return {
    // Langflow words an import it cannot resolve as Python does; ours cannot resolve any.
    imports: { errors: report.imports.map((name) => `Module "${name}" is not available: custom components cannot import modules`) },
    function: { errors: functionErrors },
  };
}
