/**
 * nact keeps each actor's last message Immediate (`actor.immediate`, only for clearImmediate on stop) after the
 * message was handled. Node does not unlink an Immediate once it ran, so that one reference keeps the whole batch
 * of Immediates that ran in the same loop turn alive, other runs' included, with their callbacks and arguments:
 * ~0.5 KB per open stream, whose job actor waits on its model for as long as the reply takes. nact calls
 * `afterMessage` once a message is handled (a no-op hook on Actor, overridden only by persistent actors, which we
 * do not use); dropping the reference there is safe, as clearing an Immediate that already ran does nothing.
 */
import { createRequire } from 'node:module';

interface ActorInternals {
  immediate: unknown;
  afterMessage(): void;
}

const { Actor } = createRequire(import.meta.url)('nact/lib/actor.js') as { Actor: { prototype: ActorInternals } };

Actor.prototype.afterMessage = function afterMessage(this: ActorInternals) {
  this.immediate = undefined;
};
