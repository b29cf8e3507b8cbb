/**
 * Langflow's de-duplication rules for names a user already has. They run inside the store's write transaction
 * (see FlowRenamer), so they must be pure: the wanted name plus the owner's similar names in, a free name out.
 */
import type { FlowRenamer, ProjectRenamer } from '../store/port.js';

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `Name` taken -> `Name (n)` with n one above the highest `(n)` already used (`Name (1)` when none). */
export function numberedName(wanted: string, similar: string[]): string {
  const numbers = similar.map((name) => /\((\d+)\)$/.exec(name)).filter((m) => m !== null).map((m) => Number(m[1]));
  return `${wanted} (${numbers.length > 0 ? Math.max(...numbers) + 1 : 1})`;
}

/** `ep` taken -> `ep-n` with n one above the highest numeric `ep-n` already used. */
export function numberedEndpointName(wanted: string, similar: string[]): string {
  const pattern = new RegExp(`^${escape(wanted)}-(\\d+)$`);
  const numbers = similar.map((name) => pattern.exec(name)).filter((m) => m !== null).map((m) => Number(m[1]));
  return `${wanted}-${numbers.length > 0 ? Math.max(...numbers) + 1 : 1}`;
}

export const flowRenamer: FlowRenamer = { name: numberedName, endpointName: numberedEndpointName };

/** Projects: Langflow looks at every name starting with the wanted one and reads the number in its last `(n)`. */
export const projectRenamer: ProjectRenamer = numberedName;
