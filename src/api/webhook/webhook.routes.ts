/**
 * POST /api/v1/webhook/{flow_id_or_name}: starts a flow in the background from any payload. The raw body reaches
 * every Webhook component's `data`; the reply confirms the start (202) once the job is recorded, and carries its
 * id (a v2 job: GET /api/v2/workflows?job_id= reads its status and result).
 */
import { z } from 'zod';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, ForbiddenError, NotFoundError } from '../../errors/index.js';
import { BoundedId } from '../../../protocol/limits.js';

const WebhookReply = z.object({ message: z.string(), status: z.string(), job_id: z.string() }).meta({ id: 'WebhookResponse' });

export function webhookRoutes(services: Services): Route[] {
  const { flows, jobs } = services;
  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/webhook/:flow_id_or_name',
      summary: 'Start a flow in the background from a payload',
      tags: ['Base'],
      auth: 'webhook',
      params: z.object({ flow_id_or_name: BoundedId }),
      bodyKind: 'raw',
      responses: { 202: { description: 'Started', schema: WebhookReply } },
      async handler({ params, body, principal }) {
        const payload = (body as Buffer).toString('utf8');
        const flow = principal ? await ownedFlow(principal.userId, params.flow_id_or_name) : await openWebhookFlow(params.flow_id_or_name);
        if (payload.trim() === '') throw new BadRequestError('Request body is empty. You should provide a JSON payload containing the flow ID.');
        const job = await jobs.enqueueWebhook(flow, payload);
        return Reply.json({ message: 'Task started in the background', status: 'in progress', job_id: job.id }, 202);
      },
    }),
  ];

  /**
   * With webhook auth off, a caller without a key runs a flow as its owner only where the owner gave it a Webhook
   * component: any other flow is not found (the deployment's setting is not every owner's consent).
   */
  async function openWebhookFlow(idOrName: string) {
    const flow = await flows.anyOwner(idOrName);
    if (!flow.webhook) throw new NotFoundError('Flow not found');
    return flow;
  }

  /** With webhook auth on, the key's user must own the flow: another user's flow is Langflow's 403, not a 404. */
  async function ownedFlow(userId: string, idOrName: string) {
    const flow = (await flows.findRunnable(userId, idOrName)) ?? (await flows.findAnyOwner(idOrName));
    if (!flow) throw new NotFoundError(`Flow identifier ${idOrName} not found`);
    if (flow.user_id !== userId) throw new ForbiddenError('Access denied: You can only execute webhooks for flows you own');
    return flow;
  }
}
