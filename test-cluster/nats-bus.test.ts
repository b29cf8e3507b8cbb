/**
 * The bus between instances on core NATS: a hint published on one connection reaches the other connection's
 * subscribers of that topic in that cluster, and no one else's.
 */
import t from 'tap';
import { clusterNames } from '../src/cluster/cluster-names.js';
import { NatsBus } from '../src/cluster/nats-bus.js';
import { natsConnection, quietLogger, uniqueClusterName } from './support/nats.js';

t.test('publish on one instance, receive on another', async (t) => {
  const names = clusterNames(uniqueClusterName());
  const [first, second] = await Promise.all([natsConnection(t), natsConnection(t)]);
  const publisher = new NatsBus(first, names, quietLogger);
  const subscriber = new NatsBus(second, names, quietLogger);
  const otherCluster = new NatsBus(first, clusterNames(uniqueClusterName()), quietLogger);
  t.teardown(() => Promise.all([publisher.close(), subscriber.close(), otherCluster.close()]));

  const wakes: string[] = [];
  const cancels: string[] = [];
  let wokenTwice!: () => void;
  const twoWakes = new Promise<void>((resolve) => (wokenTwice = resolve));
  subscriber.subscribe('wake', (payload) => {
    wakes.push(payload);
    if (wakes.length === 2) wokenTwice();
  });
  const stopCancels = subscriber.subscribe('cancel', (payload) => cancels.push(payload));
  stopCancels();
  // The server has the subscriptions (and the unsubscription) before anything is published.
  await second.flush();

  otherCluster.publish('wake', 'for another cluster');
  publisher.publish('cancel', 'run-1');
  publisher.publish('wake', 'job-1');
  publisher.publish('wake', 'job-2');
  // One publisher's messages reach one subscriber in the order sent: those before the last wake have arrived.
  await twoWakes;
  t.same(wakes, ['job-1', 'job-2'], 'both wakes, in order, none from the other cluster');
  t.same(cancels, [], 'an unsubscribed handler hears nothing');
});

t.test('publishing on a closed connection is dropped, not thrown', async (t) => {
  const nc = await natsConnection(t);
  const bus = new NatsBus(nc, clusterNames(uniqueClusterName()), quietLogger);
  await nc.close();
  t.doesNotThrow(() => bus.publish('wake', 'lost'), 'a hint is never an error for its publisher');
});
