/** Reading flows out of an uploaded multipart `file`, with FastAPI-style 422s that point into the file. */
import type { z } from 'zod';
import { FlowCreate } from '../../../protocol/flow.schema.js';
import type { UploadedFile } from '../../edge/route.js';
import { ValidationError } from '../../errors/index.js';

/** The multipart field `file`, required as FastAPI's `File(...)` is. */
export function uploadedFile(files: UploadedFile[]): UploadedFile {
  const file = files.find((f) => f.field === 'file');
  if (!file) throw ValidationError.single(['body', 'file'], 'Field required', 'missing');
  return file;
}

/** Checks each flow of an upload as a FlowCreate; the first bad one answers 422 at `body.file.flows.<i>`. */
export function asFlowCreates(flows: unknown[]): FlowCreate[] {
  return flows.map((flow, index) => {
    const parsed = FlowCreate.safeParse(flow);
    if (!parsed.success) throw pointInto(['body', 'file', 'flows', index], parsed.error);
    return parsed.data;
  });
}

function pointInto(prefix: (string | number)[], error: z.ZodError): ValidationError {
  const issues = ValidationError.fromZod('body', error).issues;
  return new ValidationError(issues.map((issue) => ({ ...issue, loc: [...prefix, ...issue.loc.slice(1)] })));
}
