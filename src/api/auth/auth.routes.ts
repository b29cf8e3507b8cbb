/** Sessions: password login, auto-login (Langflow 1.5+ rules), refresh and logout. */
import { z } from 'zod';
import { LoginForm, Token } from '../../../protocol/auth.schema.js';
import type { Services } from '../../services/services.js';
import { Reply } from '../../edge/reply.js';
import { validate } from '../../edge/request-input.js';
import { defineRoute, type Route } from '../../edge/route.js';
import { BadRequestError, UnauthenticatedError } from '../../errors/index.js';
import { readCookie } from '../../edge/cookie.js';
import { clearedCookies, sessionCookies } from './cookies.js';
import { isLoopback } from '../../auth/loopback.js';

export function authRoutes(services: Services): Route[] {
  const { tokens, users, config } = services;

  async function issue(userId: string, withRefresh: boolean): Promise<Reply> {
    const access = await tokens.sign(userId, 'access');
    const refresh = withRefresh ? await tokens.sign(userId, 'refresh') : null;
    return Reply.json({ access_token: access, refresh_token: refresh, token_type: 'bearer' }, 200, { 'set-cookie': sessionCookies(access, refresh) });
  }

  return [
    defineRoute({
      method: 'POST',
      path: '/api/v1/login',
      summary: 'Log in with a form-encoded username and password',
      tags: ['Login'],
      auth: 'none',
      bodyKind: 'raw',
      responses: { 200: { description: 'Tokens (also set as cookies)', schema: Token } },
      async handler({ body }) {
        const form = validate('body', LoginForm, Object.fromEntries(new URLSearchParams((body as Buffer).toString('utf8'))));
        const user = await users.checkPassword(form.username, form.password);
        if (!user) throw new UnauthenticatedError('Incorrect username or password');
        await users.touchLogin(user);
        return issue(user.id, true);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api/v1/auto_login',
      summary: 'Tokens for the superuser when FLOWSVC_AUTO_LOGIN is on',
      tags: ['Login'],
      auth: 'none',
      responses: { 200: { description: 'Tokens', schema: Token }, 400: { description: 'Auto login is disabled' } },
      handler(request) {
        if (!config.AUTO_LOGIN) {
          throw new BadRequestError('Auto login is disabled', { message: 'Auto login is disabled. Please enable it in the settings', auto_login: false });
        }
        // Langflow's disabled answer, so its editor shows the login page to a client on another machine.
        if (!config.AUTO_LOGIN_ANY_HOST && !isLoopback(request.clientAddress())) {
          throw new BadRequestError('Auto login is disabled for remote clients', {
            message: 'Auto login answers only clients on the same machine; log in, or set FLOWSVC_AUTO_LOGIN_ANY_HOST=true',
            auto_login: false,
          });
        }
        return issue(services.superuserId, false);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/refresh',
      summary: 'New tokens from the refresh_token_lf cookie',
      tags: ['Login'],
      auth: 'none',
      bodyKind: 'raw',
      responses: { 200: { description: 'Tokens', schema: Token }, 401: { description: 'Invalid refresh token' } },
      async handler({ headers }) {
        const refresh = readCookie(headers.cookie, 'refresh_token_lf');
        const userId = refresh ? await tokens.verify(refresh, 'refresh') : undefined;
        if (!userId || !(await services.store.users.get(userId))?.is_active) throw new UnauthenticatedError('Invalid refresh token');
        return issue(userId, true);
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/api/v1/logout',
      summary: 'Clear the session cookies',
      tags: ['Login'],
      auth: 'none',
      bodyKind: 'raw',
      responses: { 200: { description: 'Logged out', schema: z.object({ message: z.string() }) } },
      handler: () => Reply.json({ message: 'Logout successful' }, 200, { 'set-cookie': clearedCookies }),
    }),
  ];
}
