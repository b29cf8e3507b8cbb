/** What the bridge does around one MCP reply: count the stream it holds open, stop its calls if its client leaves. */
import { Reply } from '../../edge/reply.js';

export interface ReplyHooks {
  ended(): void;
  clientGone(): void;
}

export const NO_HOOKS: ReplyHooks = { ended: () => {}, clientGone: () => {} };

/** `reply` with its hooks: a streamed one's run when it ends or its client leaves; any other's end at once. */
export function withHooks(reply: Reply, hooks: ReplyHooks): Reply {
  const body = reply.body;
  if (body.kind !== 'stream') {
    hooks.ended();
    return reply;
  }
  const produce = body.produce;
  return new Reply(reply.status, {
    kind: 'stream',
    produce: (sink) => {
      sink.onClientGone(hooks.clientGone);
      return produce(sink).finally(hooks.ended);
    },
  }, reply.headers);
}
