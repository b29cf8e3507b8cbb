/** Range over array keys whose last element is a string starting with `text` (`['u1', 'n', 'Flow (']`). */
import { HIGH } from './keys.js';

export function textPrefixRange(head: (string | number)[], text: string) {
  return { start: [...head, text], end: [...head, text + HIGH] };
}
