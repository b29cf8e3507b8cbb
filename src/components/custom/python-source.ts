/**
 * Langflow exports keep each component's Python class in the node's `code` field. Such code is never run here; it
 * is recognised so that a node whose type we do not have gets an answer that says why, not "unknown type".
 */
const PYTHON_MARKERS = [
  /^\s*from\s+[\w.]+\s+import\s+/m,
  /^\s*import\s+[\w.]+(\s+as\s+\w+)?\s*$/m,
  /^\s*class\s+\w+\s*(\([^)]*\))?\s*:/m,
  /^\s*(async\s+)?def\s+\w+\s*\(/m,
];

export function looksLikePython(code: string): boolean {
  return PYTHON_MARKERS.some((marker) => marker.test(code));
}
