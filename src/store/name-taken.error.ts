/**
 * The one way every store implementation reports a unique-name clash: the write rejects with this error, naming the
 * unique field that clashed. Services turn it into their API's answer (Langflow's 400s and messages); one that
 * escapes them is a 409.
 */
import { AppError, ErrorKind } from '../errors/index.js';

/** The unique fields: a user's `username`, a name per owner (flows, projects, variables), a flow's `endpoint_name`. */
export type NameField = 'name' | 'endpoint_name' | 'username';

export class NameTakenError extends AppError {
  override name = 'NameTakenError';
  constructor(
    readonly field: NameField,
    readonly value: string,
  ) {
    super(ErrorKind.Conflict, `${field} already taken: ${value}`);
  }
}
