/** /api/v1/monitor/transactions: one record per component execution of a flow, paginated (spec 4.5). */
import { TransactionsPage, TransactionsQuery } from '../../../protocol/transaction.schema.js';
import { defineRoute, type Route } from '../../edge/route.js';
import type { Services } from '../../services/services.js';

export function transactionsRoutes(services: Services): Route[] {
  const { records } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/transactions',
      summary: 'Component executions of a flow, in the order they ran',
      tags: ['Monitor'],
      auth: 'user',
      query: TransactionsQuery,
      responses: { 200: { description: 'A page of transactions', schema: TransactionsPage } },
      handler: ({ query, principal }) => records.transactions(principal!.userId, query.flow_id, query.page, query.size),
    }),
  ];
}
