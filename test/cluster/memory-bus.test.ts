/** The single instance's bus: later delivery (never in the publisher's stack), per-topic, unsubscribe, close. */
import t from 'tap';
import { MemoryBus } from '../../src/cluster/memory-bus.js';
import { createLogger } from '../../src/logger.js';

const nextMessage = (bus: MemoryBus, topic: 'wake' | 'cancel') =>
  new Promise<string>((resolve) => {
    const stop = bus.subscribe(topic, (payload) => {
      stop();
      resolve(payload);
    });
  });

t.test('delivers later, to the topic\'s subscribers only', async (t) => {
  const bus = new MemoryBus();
  const got: string[] = [];
  bus.subscribe('cancel', (payload) => got.push(`cancel:${payload}`));
  bus.subscribe('wake', (payload) => got.push(`wake:${payload}`));
  const cancelled = nextMessage(bus, 'cancel');
  bus.publish('cancel', 'run-1');
  t.same(got, [], 'nothing runs in the publisher\'s call stack');
  t.equal(await cancelled, 'run-1');
  t.same(got, ['cancel:run-1'], 'the wake subscriber heard nothing');
});

t.test('unsubscribing and closing stop deliveries', async (t) => {
  const bus = new MemoryBus();
  const got: string[] = [];
  const stop = bus.subscribe('cancel', (payload) => got.push(payload));
  bus.publish('cancel', 'first');
  // Unsubscribed before delivery: the message published before is not delivered either.
  stop();
  const later = nextMessage(bus, 'cancel');
  bus.publish('cancel', 'second');
  t.equal(await later, 'second', 'a subscriber still subscribed gets it');
  t.same(got, [], 'the unsubscribed handler got nothing');

  const closed = new MemoryBus();
  const heard: string[] = [];
  closed.subscribe('wake', (payload) => heard.push(payload));
  closed.publish('wake', 'pending');
  await closed.close();
  const other = new MemoryBus();
  const otherMessage = nextMessage(other, 'wake');
  other.publish('wake', 'after');
  await otherMessage;
  t.same(heard, [], 'a closed bus delivers nothing, not even what was pending');
});

t.test('a handler that throws does not stop the others', async (t) => {
  const bus = new MemoryBus(createLogger('silent'));
  bus.subscribe('wake', () => {
    throw new Error('handler bug');
  });
  const delivered = nextMessage(bus, 'wake');
  bus.publish('wake', 'job');
  t.equal(await delivered, 'job');
});
