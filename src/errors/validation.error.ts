/** Request validation failures, in FastAPI's 422 shape: `{detail: [{loc, msg, type}]}` (spec 2.7). */
import type { z } from 'zod';
import { AppError, ErrorKind } from './app.error.js';

export interface ValidationIssue {
  loc: (string | number)[];
  msg: string;
  type: string;
}

export class ValidationError extends AppError {
  override name = 'ValidationError';
  constructor(readonly issues: ValidationIssue[]) {
    super(ErrorKind.Validation, issues.map((i) => `${i.loc.join('.')}: ${i.msg}`).join('; '), issues);
  }

  /** Converts zod issues found at `where` ('body', 'query', 'path', ...) into FastAPI-style items. */
  static fromZod(where: string, error: z.ZodError): ValidationError {
    return new ValidationError(capped(error.issues.flatMap((issue) => toIssues(where, issue))));
  }

  static single(loc: (string | number)[], msg: string, type = 'value_error'): ValidationError {
    return new ValidationError([{ loc, msg, type }]);
  }
}

function toIssues(where: string, issue: z.core.$ZodIssue): ValidationIssue[] {
  const loc = [where, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))];
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((key) => ({ loc: [...loc, key], msg: 'Extra inputs are not permitted', type: 'extra_forbidden' }));
    case 'invalid_type':
      return issue.input === undefined
        ? [{ loc, msg: 'Field required', type: 'missing' }]
        : [{ loc, msg: issue.message, type: `${issue.expected}_type` }];
    case 'too_big':
      return [{ loc, msg: issue.message, type: issue.origin === 'string' || issue.origin === 'array' ? 'too_long' : 'less_than_equal' }];
    case 'too_small':
      return [{ loc, msg: issue.message, type: issue.origin === 'string' || issue.origin === 'array' ? 'too_short' : 'greater_than_equal' }];
    case 'invalid_value':
      return [{ loc, msg: issue.message, type: 'enum' }];
    case 'invalid_format':
      return [{ loc, msg: issue.message, type: `${issue.format}_parsing` }];
    default:
      return [{ loc, msg: issue.message, type: 'value_error' }];
  }
}

/** At most this many issues are listed: a body of two million bad items once answered a 213 MB 422. */
export const MAX_LISTED_ISSUES = 50;

/** The first issues, then one item that says how many more there were (the shape stays FastAPI's list). */
function capped(issues: ValidationIssue[]): ValidationIssue[] {
  if (issues.length <= MAX_LISTED_ISSUES) return issues;
  const more = issues.length - MAX_LISTED_ISSUES;
  return [...issues.slice(0, MAX_LISTED_ISSUES), { loc: [], msg: `${more} more validation errors not listed`, type: 'too_many_errors' }];
}
