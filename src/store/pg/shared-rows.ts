/**
 * Records kept decoded for a repo's `getShared` (the per-request auth check, the run path's flow), kept right across
 * instances: each read asks PostgreSQL for the row's version and gets the record only when it changed since the copy
 * held here, so another instance's write is seen at once while an unchanged flow is neither sent nor decoded again.
 * Bounded (the oldest kept goes first). Callers only read what they get.
 */
import type { Pool } from 'pg';

interface Held<T> {
  version: string;
  record: T;
}

export class SharedRows<T> {
  readonly #held = new Map<string, Held<T>>();
  readonly #sql: string;

  /** `table` has `id`, `version` (bumped on every write) and `doc` columns. */
  constructor(
    private readonly pool: Pool,
    table: string,
    private readonly max: number,
  ) {
    this.#sql = `SELECT version, CASE WHEN version = $2 THEN NULL ELSE doc END AS doc FROM ${table} WHERE id = $1`;
  }

  async get(id: string): Promise<T | undefined> {
    const held = this.#held.get(id);
    const { rows } = await this.pool.query<{ version: string; doc: T | null }>(this.#sql, [id, held?.version ?? '0']);
    const row = rows[0];
    if (!row) {
      this.#held.delete(id);
      return undefined;
    }
    if (row.doc === null && held) return held.record;
    const record = row.doc as T;
    if (!held && this.#held.size >= this.max) this.#held.delete(this.#held.keys().next().value!);
    this.#held.set(id, { version: row.version, record });
    return record;
  }
}
