/**
 * A model field left empty with no default model to take, or a default whose provider has no key for this caller:
 * the caller's to fix (a variable or a setting), so a run answers 400 saying which, as for a missing variable.
 */
import { AppError, ErrorKind } from './app.error.js';

export class ModelNotConfiguredError extends AppError {
  override name = 'ModelNotConfiguredError';
  constructor(message: string) {
    super(ErrorKind.BadRequest, message);
  }
}
