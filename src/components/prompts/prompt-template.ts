/**
 * Prompt templates in Langflow's two syntaxes. f-string (default): `{var}`, with `{{`/`}}` as literal braces.
 * Mustache (`use_double_brackets`): `{{var}}` only, single braces literal, no sections or partials, one pass (a
 * value containing `{{x}}` is not expanded again). Variable names follow Langflow's rules for template fields.
 */
import { fieldNames, fillFormat, MISSING, parseFormat, TemplateSyntaxError, type FormatPiece } from '../shared/python-format.js';

/** Characters Langflow refuses in a variable name (they could not be a template field's name). */
const INVALID_CHARACTERS = new Set([' ', ',', '.', ':', ';', '!', '?', '/', '\\', '(', ')', '[', ']']);
/** Names that would clash with the prompt's own attributes in Langflow. */
const RESERVED_NAMES = new Set(['code', 'input_variables', 'output_parser', 'partial_variables', 'template', 'template_format', 'validate_template']);

const MUSTACHE_VARIABLE = /\{\{([a-zA-Z_][a-zA-Z0-9_]*)\}\}/g;
const MUSTACHE_FORBIDDEN = /\{\{\s*[#/^&>!.{]/;

export interface CompiledPrompt {
  variables: string[];
  render(values: (name: string) => string | undefined): string;
}

/** Checks a template and lists its variables; throws TemplateSyntaxError with a message fit for the user. */
export function compilePrompt(template: string, mustache: boolean): CompiledPrompt {
  return mustache ? compileMustache(template) : compileFString(template);
}

function compileFString(template: string): CompiledPrompt {
  const pieces: FormatPiece[] = parseFormat(template);
  for (const piece of pieces) {
    if (piece.kind !== 'field') continue;
    if (piece.path.length > 0) throw new TemplateSyntaxError(`Invalid variable ${piece.source}: a variable name cannot contain '.' or '['; write '{{' and '}}' for literal braces`);
    checkName(piece.name, piece.source);
  }
  const variables = fieldNames(pieces);
  return {
    variables,
    render: (values) => fillFormat(pieces, (name) => values(name) ?? MISSING, () => ''),
  };
}

function compileMustache(template: string): CompiledPrompt {
  const forbidden = MUSTACHE_FORBIDDEN.exec(template);
  if (forbidden) {
    throw new TemplateSyntaxError(`Only simple {{variable}} substitution is allowed in double-bracket mode; found '${forbidden[0]}' (sections, partials, comments and unescaped tags are not supported)`);
  }
  for (const tag of template.match(/\{\{[^}]*\}\}/g) ?? []) {
    if (!new RegExp(`^${MUSTACHE_VARIABLE.source}$`).test(tag)) throw new TemplateSyntaxError(`Invalid variable ${tag}: names are letters, digits and '_', not starting with a digit`);
  }
  const variables = [...new Set([...template.matchAll(MUSTACHE_VARIABLE)].map((m) => m[1]!))];
  for (const name of variables) checkName(name, `{{${name}}}`);
  return {
    variables,
    render: (values) => template.replace(MUSTACHE_VARIABLE, (_, name: string) => values(name) ?? ''),
  };
}

function checkName(name: string, source: string): void {
  const bad = [...name].filter((c) => INVALID_CHARACTERS.has(c));
  if (bad.length > 0) {
    throw new TemplateSyntaxError(`Invalid variable ${source}: a name cannot contain ${[...new Set(bad)].map((c) => (c === ' ' ? 'spaces' : `'${c}'`)).join(', ')}; write '{{' and '}}' for literal braces`);
  }
  if (/^\d/.test(name)) throw new TemplateSyntaxError(`Invalid variable ${source}: a name cannot start with a digit`);
  if (RESERVED_NAMES.has(name)) throw new TemplateSyntaxError(`Invalid variable ${source}: "${name}" is reserved; choose another name`);
}
