/** A component's failure: the engine adds the vertex id and type before it reaches the caller. */
import { AppError, ErrorKind } from '../errors/app.error.js';

export class ComponentError extends AppError {
  override name = 'ComponentError';
  constructor(message: string, options?: { cause?: unknown }) {
    super(ErrorKind.BadRequest, message, message, options);
  }
}
