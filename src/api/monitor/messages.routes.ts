/** /api/v1/monitor/messages: stored chat messages of the caller's flows (spec 4.5). */
import { z } from 'zod';
import { MessageResponse, MessagesQuery, MessageUpdate } from '../../../protocol/monitor.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { messageRead, messageResponse } from '../../langflow/message-response.js';
import type { MessageChanges } from '../../services/messages.service.js';
import { BoundedId, LIST_MAX_ITEMS } from '../../../protocol/limits.js';

const TAGS = ['Monitor'];

export function messagesRoutes(services: Services): Route[] {
  const { messages } = services;
  return [
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/messages',
      summary: 'Stored messages, filtered and ordered (oldest first by default)',
      tags: TAGS,
      auth: 'user',
      query: MessagesQuery,
      responses: { 200: { description: 'Messages', schema: z.array(MessageResponse) } },
      handler: async ({ query, principal }) =>
        (
          await messages.list(principal!.userId, {
            flowId: query.flow_id,
            sessionId: query.session_id,
            sender: query.sender,
            senderName: query.sender_name,
            orderBy: query.order_by,
            order: query.order,
            limit: query.limit,
            offset: query.offset,
          })
        ).map(messageResponse),
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/monitor/messages/sessions',
      summary: 'Session ids that have messages',
      tags: TAGS,
      auth: 'user',
      query: z.object({ flow_id: BoundedId.optional() }),
      responses: { 200: { description: 'Session ids', schema: z.array(z.string()) } },
      handler: ({ query, principal }) => messages.sessions(principal!.userId, query.flow_id),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/monitor/messages',
      summary: 'Delete messages by id (body: a list of ids)',
      tags: TAGS,
      auth: 'user',
      body: z.array(BoundedId).max(LIST_MAX_ITEMS, `At most ${LIST_MAX_ITEMS} items`),
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ body, principal }) => {
        await messages.delete(principal!.userId, body);
        return Reply.empty(204);
      },
    }),
    defineRoute({
      method: 'PUT',
      path: '/api/v1/monitor/messages/:message_id',
      summary: 'Update a message; changing its text marks it edited',
      tags: TAGS,
      auth: 'user',
      params: z.object({ message_id: BoundedId }),
      body: MessageUpdate,
      responses: { 200: { description: 'The updated message' } },
      handler: async ({ params, body, principal }) => messageRead(await messages.update(principal!.userId, params.message_id, body as MessageChanges)),
    }),
    defineRoute({
      method: 'PATCH',
      path: '/api/v1/monitor/messages/session/:old_session_id',
      summary: 'Move every message of a session to another session id',
      tags: TAGS,
      auth: 'user',
      params: z.object({ old_session_id: BoundedId }),
      query: z.object({ new_session_id: BoundedId.min(1) }),
      responses: { 200: { description: 'The moved messages', schema: z.array(MessageResponse) } },
      handler: async ({ params, query, principal }) =>
        (await messages.renameSession(principal!.userId, params.old_session_id, query.new_session_id)).map(messageResponse),
    }),
    defineRoute({
      method: 'DELETE',
      path: '/api/v1/monitor/messages/session/:session_id',
      summary: 'Delete every message of a session',
      tags: TAGS,
      auth: 'user',
      params: z.object({ session_id: BoundedId }),
      responses: { 204: { description: 'Deleted' } },
      handler: async ({ params, principal }) => {
        await messages.deleteSession(principal!.userId, params.session_id);
        return Reply.empty(204);
      },
    }),
  ];
}
