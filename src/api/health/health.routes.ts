/** Liveness (/health, no checks) and readiness (/health_check, checks the store for real). */
import { z } from 'zod';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { defineRoute, type Route } from '../../edge/route.js';

const Health = z.object({ status: z.string() });
const HealthCheck = z.object({ status: z.string(), chat: z.string(), db: z.string() }).meta({ id: 'HealthResponse' });

export function healthRoutes(services: Services): Route[] {
  const check = async () => {
    try {
      await services.store.ping();
      return { status: 'ok', chat: 'ok', db: 'ok' };
    } catch (error) {
      services.logger.error({ err: error }, 'health check: store unavailable');
      return Reply.json({ detail: { status: 'nok', chat: 'ok', db: 'error check the server logs' } }, 500);
    }
  };
  const checkRoute = (path: string) =>
    defineRoute({
      method: 'GET',
      path,
      summary: 'Health of the store and chat services; 500 when one is unavailable',
      tags: ['Health'],
      auth: 'none',
      responses: { 200: { description: 'Healthy', schema: HealthCheck }, 500: { description: 'A service is unavailable' } },
      handler: check,
    });
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      summary: 'Liveness: answered as soon as the process listens',
      tags: ['Health'],
      auth: 'none',
      responses: { 200: { description: 'Alive', schema: Health } },
      handler: () => ({ status: 'ok' }),
    }),
    checkRoute('/health_check'),
    checkRoute('/api/v1/health_check'),
  ];
}
