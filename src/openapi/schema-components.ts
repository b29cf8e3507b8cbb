/**
 * zod -> OpenAPI schema objects. Schemas that carry `.meta({id})` become entries of `components.schemas` and are
 * referenced with `$ref`, so a shape used by many routes (UserRead, FlowRead, ...) is written once.
 */
import { z } from 'zod';
import type { SchemaObject } from './types.js';

/** Which side of a transform a schema describes: what clients send, or what the service replies. */
export type SchemaIo = 'input' | 'output';

const DEFS_PREFIX = '#/$defs/';
const COMPONENTS_PREFIX = '#/components/schemas/';

export class SchemaComponents {
  /** Becomes `components.schemas` of the document. */
  readonly schemas: Record<string, SchemaObject> = {};

  /** The schema object for `schema`, with its id'd parts moved to components. */
  convert(schema: z.ZodType, io: SchemaIo): SchemaObject {
    // 'any' because some shapes (transforms on the output side, custom checks) have no JSON Schema form: they
    // are documented as "anything" rather than making the whole document fail.
    const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12', override: dropSafeIntegerBounds }) as SchemaObject;
    const { $schema: _dialect, $defs, ...root } = json;
    const names = this.register(($defs ?? {}) as Record<string, SchemaObject>, io);
    return renameRefs(root, names) as SchemaObject;
  }

  /**
   * Adds the `$defs` of one conversion to the components; returns each def's component name.
   * The same id can render differently as input and output (defaults make fields optional on input), so a def
   * that clashes with what is already registered gets a suffixed name, like FastAPI's `-Input`/`-Output`.
   * Renaming one def changes the refs inside the others, hence the loop until the names settle.
   */
  private register(defs: Record<string, SchemaObject>, io: SchemaIo): Map<string, string> {
    const names = new Map(Object.keys(defs).map((id) => [id, id]));
    const attempts = new Map<string, number>();
    for (let settled = false; !settled; ) {
      settled = true;
      for (const [id, def] of Object.entries(defs)) {
        const name = names.get(id)!;
        const existing = this.schemas[name];
        if (existing && !sameJson(existing, renameRefs(def, names))) {
          const attempt = (attempts.get(id) ?? 0) + 1;
          attempts.set(id, attempt);
          names.set(id, variantName(id, io, attempt));
          settled = false;
        }
      }
    }
    for (const [id, def] of Object.entries(defs)) this.schemas[names.get(id)!] ??= renameRefs(def, names) as SchemaObject;
    return names;
  }
}

/** zod bounds every `.int()` by ±2^53-1; that is JavaScript's limit, not the API's, and only clutters the document. */
function dropSafeIntegerBounds({ jsonSchema }: { jsonSchema: SchemaObject }): void {
  if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
  if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
}

function variantName(id: string, io: SchemaIo, attempt: number): string {
  const side = io === 'input' ? 'Input' : 'Output';
  return attempt === 1 ? `${id}-${side}` : `${id}-${side}-${attempt}`;
}

/** Deep copy of `value` with `#/$defs/<id>` refs pointing at components under their final names. */
function renameRefs(value: unknown, names: Map<string, string>): unknown {
  if (Array.isArray(value)) return value.map((item) => renameRefs(item, names));
  if (value === null || typeof value !== 'object') return value;
  const out: SchemaObject = {};
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string' && child.startsWith(DEFS_PREFIX)) {
      const id = child.slice(DEFS_PREFIX.length);
      out[key] = COMPONENTS_PREFIX + (names.get(id) ?? id);
    } else {
      out[key] = renameRefs(child, names);
    }
  }
  return out;
}

/** zod emits keys in a stable order for the same schema, so comparing serialisations is enough. */
function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
