/** Transactions (spec 4.5): one record per component execution, as Langflow 1.7's TransactionTable. */
import { z } from 'zod';
import { pageOf } from './common.schema.js';
import { PageNumber, PageSize } from './flow-query.schema.js';
import { BoundedId } from './limits.js';

export const TransactionRecord = z
  .object({
    id: z.string(),
    timestamp: z.string(),
    vertex_id: z.string(),
    /** The first vertex this one feeds, if any. */
    target_id: z.string().nullable(),
    inputs: z.record(z.string(), z.unknown()),
    outputs: z.record(z.string(), z.unknown()),
    status: z.enum(['success', 'error']),
    error: z.string().nullable(),
    flow_id: z.string(),
  })
  .meta({ id: 'TransactionTable' });
export type TransactionRecord = z.infer<typeof TransactionRecord>;

export const TransactionsQuery = z.object({ flow_id: BoundedId, page: PageNumber.default(1), size: PageSize.default(50) });

export const TransactionsPage = pageOf(TransactionRecord).meta({ id: 'Page_TransactionTable_' });
