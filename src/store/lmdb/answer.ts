/**
 * A read lmdb answers synchronously, as the port's promise: resolved at once with the value (no tick of its own
 * before the caller's await), or rejected with what the read threw (a closed store), never a throw to the caller.
 */
export function answer<T>(read: () => T): Promise<T> {
  try {
    return Promise.resolve(read());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}
