/**
 * What nact actors keep that they no longer need, let go:
 * - The last message's Immediate (`actor.immediate`, only for clearImmediate on stop), once the message was handled.
 *   Node does not unlink an Immediate once it ran, so that one reference kept the whole batch of Immediates that
 *   ran in the same loop turn alive, other runs' included, with their callbacks and arguments: ~0.5 KB per open
 *   stream, whose job actor waits on its model for as long as the reply takes.
 * - The actors a system has stopped: it keeps its children in Maps with an entry added and one deleted per run, and
 *   the old tables V8 keeps of such a Map kept stopped actors alive through young-generation GCs until the next full
 *   GC (src/collections/releasing-map.ts). `releaseStoppedChildren` makes those Maps ReleasingMaps.
 * - A stopped actor's handler, start and crash functions and state (a job actor's reach its run's whole job: the
 *   graph, the results, the run's callbacks), for whatever else still holds the actor.
 * nact calls `afterMessage` once a message is handled (a no-op hook on Actor, overridden only by persistent actors,
 * which we do not use); clearing an Immediate that already ran does nothing. A stopped actor handles no message:
 * nact's `processNext` and `dispatch` check `stopped` first, and `stop` clears the pending Immediate.
 */
import { createRequire } from 'node:module';
import type { Ref } from 'nact';
import { ReleasingMap } from '../src/collections/releasing-map.js';

interface ActorInternals {
  immediate: unknown;
  stopped: boolean;
  f: unknown;
  state: unknown;
  initialState: unknown;
  initialStateFunc: unknown;
  onCrash: unknown;
  afterMessage(): void;
  stop(): void;
}

const require = createRequire(import.meta.url);
const { Actor } = require('nact/lib/actor.js') as { Actor: { prototype: ActorInternals } };
const systems = require('nact/lib/system-map.js') as { find(name: string): { children: unknown; childReferences: unknown } | undefined };

/** What a stopped actor answers a fault with (nact's supervision action). */
const stopOnCrash = (_msg: unknown, _error: unknown, ctx: { stop: unknown }) => ctx.stop;

function release(actor: ActorInternals): void {
  actor.f = undefined;
  actor.state = undefined;
  actor.initialState = undefined;
  actor.initialStateFunc = undefined;
  actor.onCrash = stopOnCrash;
}

Actor.prototype.afterMessage = function afterMessage(this: ActorInternals) {
  this.immediate = undefined;
  // A handler that stopped its actor returns a state, which nact stores after `stop`.
  if (this.stopped) release(this);
};

const stop = Actor.prototype.stop;
Actor.prototype.stop = function stopAndRelease(this: ActorInternals) {
  stop.call(this);
  release(this);
};

/** Makes a system's registries of its children ReleasingMaps (nact reads them with has, get, set, delete, values). */
export function releaseStoppedChildren(system: Ref<never>): void {
  const concrete = systems.find((system as unknown as { system: { name: string } }).system.name);
  if (!concrete) throw new Error('releaseStoppedChildren: the actor system is not running');
  concrete.children = new ReleasingMap<string, unknown>();
  concrete.childReferences = new ReleasingMap<string, unknown>();
}
