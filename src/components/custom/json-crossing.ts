/**
 * Parses JSON text that came out of a sandbox. A `__proto__` key parses as an own property, which is harmless
 * until the host copies the object with assignment (spread into a prototype-less target, Object.assign): then it
 * would set that object's prototype. Such keys are dropped here, at the boundary, so no later copy can be fooled.
 */
export function parseCrossing(text: string): unknown {
  return JSON.parse(text, (key, value) => (key === '__proto__' ? undefined : value));
}
