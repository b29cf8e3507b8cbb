/** A stored flow that cannot run (unknown component, dangling edge, bad handle): a 400 naming node and problem. */
import { AppError, ErrorKind } from './app.error.js';

export class FlowInvalidError extends AppError {
  override name = 'FlowInvalidError';
  constructor(
    message: string,
    readonly nodeId?: string,
  ) {
    super(ErrorKind.BadRequest, message);
  }
}
