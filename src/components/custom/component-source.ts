/**
 * A custom component's source (TypeScript or JavaScript, an ES module with a default export) made into a script the
 * sandbox evaluates: types stripped (no type check), the module's exports turned into a plain object. Nothing here
 * runs the code; it is only rewritten, so validation can report syntax errors without executing anything.
 */
import { createHash } from 'node:crypto';
import { transform } from 'sucrase';

export interface SourceProblem {
  message: string;
  /** 1-based, when the parser knows where. */
  line?: number;
  column?: number;
}

export type CompiledSource =
  | { ok: true; script: string; hash: string }
  | { ok: false; syntax?: SourceProblem; imports: string[] };

/** The name the sandbox knows the evaluated module's exports by (the harness reads it once, then deletes it). */
export const EXPORTS_GLOBAL = '__flowsvcExports';

/** What a source is known by (caches, sandbox pools): its SHA-256. */
export function sourceHash(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Strips types and rewrites `export` / `import`; imports are refused (a sandbox has no modules to give). */
export function compileSource(code: string, hash = sourceHash(code)): CompiledSource {
  let output: string;
  try {
    output = transform(code, { transforms: ['typescript', 'imports'], disableESTransforms: true, production: true, preserveDynamicImport: true }).code;
  } catch (error) {
    return { ok: false, syntax: syntaxProblem(error), imports: [] };
  }
  // Type-only (and unused) imports are gone by now; what is left would need a module loader. A dynamic import()
  // is kept as is: inside the sandbox it finds no module.
  const imports = [...output.matchAll(/\brequire\(\s*(['"])([^'"]+)\1\s*\)/g)].map((match) => match[2]!);
  if (imports.length > 0) return { ok: false, imports: [...new Set(imports)] };
  const script = `(function () { var module = { exports: {} }; var exports = module.exports;\n${output}\n;globalThis.${EXPORTS_GLOBAL} = module.exports; })();`;
  return { ok: true, script, hash };
}

function syntaxProblem(error: unknown): SourceProblem {
  const message = error instanceof Error ? error.message : String(error);
  const loc = (error as { loc?: { line?: number; column?: number } }).loc;
  // Sucrase's messages end with "(line:column)"; the location is given apart, so it is dropped from the text.
  return { message: message.replace(/\s*\(\d+:\d+\)$/, ''), line: loc?.line, column: loc?.column };
}
