/** The cookies Langflow's editor uses for sessions. */

const base = 'Path=/; SameSite=Lax';

export function sessionCookies(access: string, refresh: string | null): string[] {
  const cookies = [`access_token_lf=${access}; HttpOnly; ${base}; Max-Age=3600`];
  if (refresh) cookies.push(`refresh_token_lf=${refresh}; HttpOnly; ${base}; Max-Age=604800`);
  return cookies;
}

export const clearedCookies = [
  `access_token_lf=; ${base}; Max-Age=0`,
  `refresh_token_lf=; ${base}; Max-Age=0`,
  `apikey_tkn_lflw=; ${base}; Max-Age=0`,
];
