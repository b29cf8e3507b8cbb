/** The service's own named values in PostgreSQL (shared by every instance: one generated secret key for all). */
import type { Pool } from 'pg';
import type { SettingsRepo } from '../port.js';

export function pgSettings(pool: Pool): SettingsRepo {
  return {
    get: async (name) => (await pool.query<{ value: string }>('SELECT value FROM settings WHERE name = $1', [name])).rows[0]?.value,
    put: async (name, value) => {
      await pool.query('INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [name, value]);
    },
    putIfAbsent: async (name, value) => {
      // DO UPDATE of nothing, not DO NOTHING: the row comes back either way, the first writer's value with it.
      const { rows } = await pool.query<{ value: string }>(
        'INSERT INTO settings (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = settings.value RETURNING value',
        [name, value],
      );
      return rows[0].value;
    },
  };
}
