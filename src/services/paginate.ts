/** fastapi-pagination's Page over an in-memory list. */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  size: number;
  pages: number;
}

export function paginate<T>(all: T[], page: number, size: number): Page<T> {
  const start = (page - 1) * size;
  return { items: all.slice(start, start + size), total: all.length, page, size, pages: Math.ceil(all.length / size) };
}

/** Creation order (Langflow lists rows in table order); records without `created_at` fall back to `updated_at`. */
export function byCreation<T extends { id: string; updated_at?: string; created_at?: string }>(a: T, b: T): number {
  const ka = a.created_at ?? a.updated_at ?? '';
  const kb = b.created_at ?? b.updated_at ?? '';
  return ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
