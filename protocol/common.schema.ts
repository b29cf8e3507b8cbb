/** Small shared pieces of the wire protocol. */
import { z } from 'zod';

/** Query booleans as FastAPI reads them: true/false/1/0/yes/no/on/off, any case. */
export const QueryBool = z
  .string()
  .transform((v, ctx) => {
    const lower = v.toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(lower)) return true;
    if (['false', '0', 'no', 'off'].includes(lower)) return false;
    ctx.addIssue({ code: 'custom', message: 'Input should be a valid boolean, unable to interpret input' });
    return z.NEVER;
  });

export const QueryInt = z.coerce.number().int();

export const Uuid = z.string().uuid();

export const Detail = z.object({ detail: z.unknown() }).meta({ id: 'ErrorDetailBody' });

export const ValidationErrorBody = z
  .object({
    detail: z.array(z.object({ loc: z.array(z.union([z.string(), z.number()])), msg: z.string(), type: z.string() })),
  })
  .meta({ id: 'HTTPValidationError' });

/** fastapi-pagination's Page. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total: z.number().int(), page: z.number().int(), size: z.number().int(), pages: z.number().int() });
}
