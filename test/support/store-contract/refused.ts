/** The contract's one check of a name clash: the write rejects with NameTakenError naming the field and value. */
import type { Test } from 'tap';
import { NameTakenError, type NameField } from '../../../src/store/name-taken.error.js';

export async function refused(t: Test, write: Promise<unknown>, field: NameField, value: string, what: string): Promise<void> {
  const error = await write.then(
    () => new Error('the write succeeded'),
    (reason: unknown) => reason,
  );
  t.type(error, NameTakenError, `${what}: refused with NameTakenError`);
  // Compared whole: t.match would find 'name' in 'endpoint_name'.
  t.same({ field: (error as NameTakenError).field, value: (error as NameTakenError).value }, { field, value }, `${what}: it names the ${field} taken`);
}
