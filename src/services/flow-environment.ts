/**
 * The part of the service's environment flows may read when FLOWSVC_FALLBACK_TO_ENV_VAR is on (the default, as in
 * Langflow): model keys and whatever else the operator exported, but never the service's own settings. A flow
 * field naming FLOWSVC_SECRET_KEY, FLOWSVC_DATABASE_URL or FLOWSVC_API_KEY would otherwise hand any user the key
 * that signs everyone's tokens, the database's password or the superuser's key.
 */
const SERVICE_SETTING = 'FLOWSVC_';

export const flowEnvironment: NodeJS.ProcessEnv = new Proxy(process.env, {
  get: (env, name) => (typeof name === 'string' && !name.toUpperCase().startsWith(SERVICE_SETTING) ? env[name] : undefined),
});
