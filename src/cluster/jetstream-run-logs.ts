/**
 * Runs' event logs on NATS JetStream, shared by every instance of a cluster: one stream, one subject per run
 * (cluster-names.ts, message layout in run-log-messages.ts). The run's owner appends every entry through a pipelined
 * writer (run-log-writer.ts); any instance reads a run whole or follows it from a sequence number
 * (run-log-follower.ts). When an owner dies, another instance may finish its run with `appendFenced`: the expected
 * last subject sequence makes the server refuse it if any other writer appended meanwhile.
 */
import { JetStreamApiCodes, JetStreamApiError, jetstream, jetstreamManager, StorageType, type JetStreamClient, type JetStreamManager, type PubAck } from '@nats-io/jetstream';
import { nanos, type MsgHdrs, type NatsConnection } from '@nats-io/transport-node';
import type { Logger } from '../logger.js';
import type { LogEntry, LogWatcher } from '../runs/run-log.js';
import { subjectToken, type ClusterNames } from './cluster-names.js';
import { RunLogAcks } from './run-log-acks.js';
import { RunLogFollower } from './run-log-follower.js';
import { decodeEntry, encodeEntry, endMarkerHeaders, endMsgId, entryMsgId, isEndMarker } from './run-log-messages.js';
import { scanSubject, SubjectReader } from './run-log-reading.js';
import { PipelinedRunLogWriter, type RunLogWriter } from './run-log-writer.js';

export type { RunLogWriter };

export type FencedAppend = 'appended' | 'ended-already' | 'conflict';

/** How long the server remembers message ids: an entry sent again within it (a retry) is stored once. */
const DUPLICATE_WINDOW_MS = 2 * 60_000;
/** The server's error when a stream exists with another configuration. */
const STREAM_NAME_IN_USE = 10058;

export interface JetStreamRunLogsOptions {
  /** How long a run's log is kept (0: for ever). */
  maxAgeMs: number;
  logger: Logger;
}

export class JetStreamRunLogs {
  private readonly followers = new Set<RunLogFollower>();
  private closed = false;
  private readonly acks: RunLogAcks;

  private constructor(
    private readonly nc: NatsConnection,
    private readonly js: JetStreamClient,
    private readonly jsm: JetStreamManager,
    private readonly names: ClusterNames,
    private readonly logger: Logger,
  ) {
    this.acks = new RunLogAcks(nc);
    void this.reattachOnReconnect(nc);
  }

  /** A server that restarted lost its consumers: every follower starts a new one where it was. */
  private async reattachOnReconnect(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (this.closed) break;
      if (status.type === 'reconnect') for (const follower of this.followers) follower.reattach();
    }
  }

  /** Creates the cluster's stream, or brings an existing one to this configuration (every instance does, any order). */
  static async open(nc: NatsConnection, names: ClusterNames, options: JetStreamRunLogsOptions): Promise<JetStreamRunLogs> {
    const jsm = await jetstreamManager(nc);
    // The server refuses a duplicate window longer than the age limit.
    const duplicateWindowMs = options.maxAgeMs > 0 ? Math.min(DUPLICATE_WINDOW_MS, options.maxAgeMs) : DUPLICATE_WINDOW_MS;
    const config = {
      subjects: [names.runSubjects],
      storage: StorageType.File,
      max_age: nanos(options.maxAgeMs),
      duplicate_window: nanos(duplicateWindowMs),
    };
    try {
      await jsm.streams.add({ name: names.stream, ...config });
    } catch (error) {
      if (!(error instanceof JetStreamApiError && error.code === STREAM_NAME_IN_USE)) throw error;
      await jsm.streams.update(names.stream, config);
    }
    return new JetStreamRunLogs(nc, jetstream(nc), jsm, names, options.logger);
  }

  /** The owner's writer of a run's log; appends are pipelined (run-log-writer.ts). */
  writer(runId: string): RunLogWriter {
    return new PipelinedRunLogWriter(this.nc, this.acks, this.names.runSubject(runId), subjectToken(runId), this.logger);
  }

  /**
   * Appends `entries` (renumbered to follow the log's last entry) and, if `end`, the end marker, unless another
   * writer appended since the log was read: then 'conflict', and the caller reads again and retries. Each message
   * waits for the previous one's acknowledgement, its stream sequence being the next one's expectation: this is
   * for finishing a dead owner's run, a few entries, not a hot path. A conflict after the first message leaves the
   * ones before it stored (JetStream 2.9 has no atomic batch). Telling an ended log from one still open reads the
   * subject's headers when its last message is not the end (a late owner may have appended after it): a scan, which
   * this rare path can afford.
   */
  async appendFenced(runId: string, entries: LogEntry[], end: boolean): Promise<FencedAppend> {
    const subject = this.names.runSubject(runId);
    const token = subjectToken(runId);
    const last = await this.jsm.streams.getMessage(this.names.stream, { last_by_subj: subject });
    if (last && isEndMarker(last.header)) return 'ended-already';
    // An owner taken for dead may have gone on appending after the log was ended: the end is then further back.
    if (last && (await this.endMarkerStored(subject, last.seq))) return 'ended-already';
    let expected = last?.seq ?? 0;
    const lastSeq = last ? decodeEntry(last.data).seq : 0;
    const messages: { payload: Uint8Array; msgID: string; headers?: MsgHdrs }[] = entries.map((entry, index) => {
      const seq = lastSeq + 1 + index;
      return { payload: encodeEntry({ ...entry, seq }), msgID: entryMsgId(token, seq) };
    });
    if (end) messages.push({ payload: new Uint8Array(), msgID: endMsgId(token), headers: endMarkerHeaders() });
    for (const { payload, msgID, headers } of messages) {
      let ack: PubAck;
      try {
        ack = await this.js.publish(subject, payload, { msgID, headers, expect: { lastSubjectSequence: expected } });
      } catch (error) {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamWrongLastSequence) return 'conflict';
        throw error;
      }
      // The server drops a known message id before it checks the expectation: another writer stored this one.
      if (ack.duplicate) return 'conflict';
      expected = ack.seq;
    }
    return 'appended';
  }

  private async endMarkerStored(subject: string, lastSeq: number): Promise<boolean> {
    let found = false;
    await scanSubject(this.js, this.names.stream, subject, lastSeq, (msg) => (found ||= isEndMarker(msg.headers)), true);
    return found;
  }

  /** Every entry stored for the run, in order, and whether its end marker is stored. */
  async readAll(runId: string): Promise<{ entries: LogEntry[]; ended: boolean }> {
    const subject = this.names.runSubject(runId);
    const last = await this.jsm.streams.getMessage(this.names.stream, { last_by_subj: subject });
    if (!last) return { entries: [], ended: false };
    const entries: LogEntry[] = [];
    let ended = false;
    const reader = new SubjectReader(0);
    await scanSubject(this.js, this.names.stream, subject, last.seq, (msg) => {
      const step = reader.step(msg);
      if (step.kind === 'entry') entries.push(step.entry);
      else if (step.kind === 'end') ended = true;
    });
    return { entries, ended };
  }

  /** Replays the entries with seq > `after`, then follows until the end marker; returns the stop function. */
  watch(runId: string, after: number, watcher: LogWatcher): () => void {
    const follower: RunLogFollower = new RunLogFollower(this.js, this.names.stream, this.names.runSubject(runId), after, watcher, this.logger, () => this.followers.delete(follower));
    this.followers.add(follower);
    return () => follower.stop();
  }

  /** Stops every watch; the connection is the caller's, and stays open. */
  async close(): Promise<void> {
    this.closed = true;
    this.acks.close();
    for (const follower of [...this.followers]) follower.stop();
  }
}
