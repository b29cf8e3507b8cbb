import t from 'tap';
import { startTestServer } from './support/server.js';

/**
 * Langflow's ConfigResponse, every key required (research: platform API section 5, and Langflow's
 * api/v1/schemas.py), with the JSON type of each value.
 */
const CONFIG_KEYS: Record<string, 'object' | 'number' | 'boolean' | 'string'> = {
  feature_flags: 'object',
  serialization_max_items_length: 'number',
  serialization_max_text_length: 'number',
  frontend_timeout: 'number',
  auto_saving: 'boolean',
  auto_saving_interval: 'number',
  health_check_max_retries: 'number',
  max_file_size_upload: 'number',
  webhook_polling_interval: 'number',
  public_flow_cleanup_interval: 'number',
  public_flow_expiration: 'number',
  event_delivery: 'string',
  webhook_auth_enable: 'boolean',
  voice_mode_available: 'boolean',
  default_folder_name: 'string',
  hide_getting_started_progress: 'boolean',
};

t.test('GET /api/v1/config has exactly the keys of Langflow\'s ConfigResponse', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const res = await server.request('/api/v1/config');
  t.equal(res.status, 200);
  const body = (await res.json()) as Record<string, unknown>;
  t.same(Object.keys(body).sort(), Object.keys(CONFIG_KEYS).sort());
  for (const [key, type] of Object.entries(CONFIG_KEYS)) t.equal(typeof body[key], type, `${key} is a ${type}`);

  t.equal(body.event_delivery, 'streaming');
  t.equal(body.default_folder_name, 'Starter Project');
  t.equal(body.voice_mode_available, true, 'the voice WebSocket is served');
  t.ok(body.feature_flags && !Array.isArray(body.feature_flags), 'feature_flags is an object');
  t.equal(body.max_file_size_upload, 1024, 'default upload limit');
  t.equal(body.webhook_auth_enable, true, 'webhook auth on by default');
});

t.test('GET /api/v1/config reports the configured upload limit and webhook auth', async (t) => {
  const server = await startTestServer({ MAX_FILE_SIZE_UPLOAD: '7', WEBHOOK_AUTH_ENABLE: 'false' });
  t.teardown(() => server.close());

  const body = (await (await server.request('/api/v1/config')).json()) as Record<string, unknown>;
  t.equal(body.max_file_size_upload, 7);
  t.equal(body.webhook_auth_enable, false);
});

t.test('GET /api/v1/config needs a key', async (t) => {
  const server = await startTestServer();
  t.teardown(() => server.close());

  const res = await server.request('/api/v1/config', { key: null });
  t.equal(res.status, 403);
  t.type(((await res.json()) as { detail: unknown }).detail, 'string');

  const wrong = await server.request('/api/v1/config', { key: 'sk-not-a-real-key-0123456789' });
  t.equal(wrong.status, 403);

  const viaQuery = await server.request(`/api/v1/config?x-api-key=${server.apiKey}`, { key: null });
  t.equal(viaQuery.status, 200, 'the key may come in the query');
});
