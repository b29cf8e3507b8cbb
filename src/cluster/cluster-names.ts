/**
 * The NATS names of one cluster of flowsvc instances: its JetStream stream of run logs, each run's subject in it,
 * and the subjects of its bus. Every name carries the cluster's name (FLOWSVC_CLUSTER_NAME), so that several clusters
 * can share one NATS server without seeing each other's runs or hints.
 *
 * The cluster name is used as given, case included, in the stream name as in the subjects: turning it to upper case
 * for the stream would give `prod` and `Prod` one stream while their subjects differ, and creating one's stream
 * would then take the other's subjects away.
 */
import type { BusTopic } from './event-bus.port.js';

export interface ClusterNames {
  /** The JetStream stream that holds every run's log. */
  stream: string;
  /** The subject of one run's log. */
  runSubject(runId: string): string;
  /** The wildcard subject the stream listens on: every run's subject. */
  runSubjects: string;
  /** The core NATS subject of one kind of bus message. */
  busSubject(topic: BusTopic): string;
}

const CLUSTER_NAME = /^[A-Za-z0-9_-]{1,32}$/;
const SAFE_TOKEN_CHAR = /[A-Za-z0-9_-]/;

export function clusterNames(clusterName: string): ClusterNames {
  if (!CLUSTER_NAME.test(clusterName)) {
    throw new Error(`invalid cluster name ${JSON.stringify(clusterName)}: use 1 to 32 letters, digits, '-' or '_'`);
  }
  const prefix = `flowsvc.${clusterName}`;
  return {
    stream: `FLOWSVC_${clusterName}_RUNS`,
    runSubject: (runId) => `${prefix}.run.${subjectToken(runId)}`,
    runSubjects: `${prefix}.run.>`,
    busSubject: (topic) => `${prefix}.bus.${topic}`,
  };
}

/**
 * A run id as one subject token. Run ids are letters, digits, '-' and '_', which pass unchanged; anything else
 * (a '.', a wildcard, white space) would split the subject or widen a filter, so it becomes `~` and its UTF-8 bytes
 * in hex. `~` is itself always escaped, so two different ids never share a token.
 */
export function subjectToken(runId: string): string {
  if (runId.length === 0) throw new Error('a run id cannot be empty');
  let token = '';
  for (const char of runId) {
    if (SAFE_TOKEN_CHAR.test(char)) token += char;
    else for (const byte of Buffer.from(char, 'utf8')) token += `~${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return token;
}
