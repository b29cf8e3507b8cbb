/**
 * An MCP body as JSON when it is (depth-guarded); otherwise undefined, and the transport answers with its own parse
 * error rather than our 422.
 */
import { MAX_JSON_DEPTH, nestsDeeperThan, parseUntrustedJson } from '../../../protocol/json-guard.js';

export function jsonOrUndefined(raw: Buffer | undefined): unknown {
  if (!raw || raw.length === 0 || nestsDeeperThan(raw, MAX_JSON_DEPTH)) return undefined;
  try {
    return parseUntrustedJson(raw);
  } catch {
    return undefined;
  }
}
