/**
 * Waits for an event with a bound: tests wait for what they mean rather than sleeping, and an event that never
 * comes fails the test at once with its name, not at tap's timeout (minutes) with none.
 */
export async function within<T>(event: Promise<T>, what: string, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([event, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** A one-time event a test component fires and the test awaits (Node 20 has no Promise.withResolvers). */
export function occurrence(): { fire: () => void; happened: Promise<void> } {
  let fire!: () => void;
  const happened = new Promise<void>((resolve) => (fire = resolve));
  return { fire, happened };
}
