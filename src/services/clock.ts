/** Timestamps in the ISO form Langflow's records use. */
export const nowIso = (): string => new Date().toISOString();
