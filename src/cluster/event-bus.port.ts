/**
 * The bus port: hints between the instances of a cluster. A run stopped by a request another instance took
 * ('cancel'), a job committed for whoever is idle ('wake').
 *
 * Messages are hints, delivered at most once: a lost one only delays what the store of record would tell anyway,
 * so callers never await a publish and never rely on a delivery. Handlers run later than the publish, never in the
 * publisher's call stack, and an instance may receive its own messages.
 */
export type BusTopic = 'wake' | 'cancel';

export interface EventBus {
  /** Sends a hint to every subscriber of `topic` (on every instance); never throws, never waits. */
  publish(topic: BusTopic, payload: string): void;
  /** Calls `handler` with each later message of `topic`; returns the unsubscribe function. */
  subscribe(topic: BusTopic, handler: (payload: string) => void): () => void;
  /** Stops every subscription of this bus. */
  close(): Promise<void>;
}
