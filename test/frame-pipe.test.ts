/**
 * FramePipe against a sink whose fullness the test controls: the first frames of a turn go out in the call that
 * pushes them, the rest of the turn in one write at its end, nothing is written while the socket is full, and
 * nothing is lost or reordered on the way.
 */
import t from 'tap';
import { FramePipe } from '../src/edge/frame-pipe.js';
import type { StreamSink } from '../src/edge/reply.js';

class FakeSink implements StreamSink {
  readonly writes: string[] = [];
  full = false;
  ended = false;
  private readonly controller = new AbortController();
  readonly signal = this.controller.signal;
  private waiter?: () => void;

  get closed() {
    return this.signal.aborted || this.ended;
  }
  write(chunk: string | Uint8Array): boolean {
    this.writes.push(String(chunk));
    return !this.full;
  }
  drained(): Promise<void> {
    if (!this.full) return Promise.resolve();
    return new Promise((resolve) => (this.waiter = resolve));
  }
  /** The socket took what it held. */
  drain(): void {
    this.full = false;
    this.waiter?.();
  }
  onClientGone(listener: () => void): void {
    if (this.signal.aborted) listener();
    else this.signal.addEventListener('abort', listener, { once: true });
  }
  abort(): void {
    this.controller.abort();
  }
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

t.test('the first two frames of a turn are written at once, the rest of the turn together at its end', async (t) => {
  const pipe = new FramePipe();
  const sink = new FakeSink();
  const done = pipe.drain(sink);
  pipe.push('a');
  t.same(sink.writes, ['a'], 'written inside push, before the turn goes on');
  pipe.push('b');
  pipe.push('c');
  pipe.push('d');
  t.same(sink.writes, ['a', 'b'], 'the turn\'s third frame waits');
  await nextTurn();
  t.same(sink.writes, ['a', 'b', 'cd'], 'the rest of the turn in one write');
  pipe.push('e');
  t.same(sink.writes, ['a', 'b', 'cd', 'e'], 'a new turn writes at once again');
  pipe.end();
  await done;
  t.equal(sink.writes.join(''), 'abcde');
});

t.test('nothing is written while the socket is full; what queued goes out in order once it drains', async (t) => {
  const pipe = new FramePipe();
  const sink = new FakeSink();
  const done = pipe.drain(sink);
  sink.full = true;
  pipe.push('1');
  t.same(sink.writes, ['1'], 'the write that filled the socket');
  pipe.push('2');
  await nextTurn();
  pipe.push('3');
  await nextTurn();
  t.same(sink.writes, ['1'], 'no write while full, across turns');
  pipe.end();
  sink.drain();
  await done;
  t.same(sink.writes, ['1', '23'], 'the queue in one write, in order, then the pipe finished');
});

t.test('frames pushed before the sink is attached are written when it is', async (t) => {
  const pipe = new FramePipe();
  pipe.push('x');
  pipe.push('y');
  pipe.end();
  pipe.push('ignored after end');
  const sink = new FakeSink();
  await pipe.drain(sink);
  t.same(sink.writes, ['xy']);
});

t.test('a client that goes away ends the drain, and later frames are dropped', async (t) => {
  const pipe = new FramePipe();
  const sink = new FakeSink();
  sink.full = true;
  const done = pipe.drain(sink);
  pipe.push('before');
  pipe.push('queued');
  sink.abort();
  await done;
  pipe.push('after');
  await nextTurn();
  t.same(sink.writes, ['before'], 'nothing after the client left');
});

t.test('a pipe ended in the turn that queued frames writes them and finishes at that turn\'s end', async (t) => {
  const pipe = new FramePipe();
  const sink = new FakeSink();
  const done = pipe.drain(sink);
  pipe.push('a');
  pipe.push('b');
  pipe.push('c');
  pipe.end();
  let finished = false;
  void done.then(() => (finished = true));
  await nextTurn();
  await Promise.resolve();
  t.same(sink.writes, ['a', 'b', 'c']);
  t.ok(finished, 'the drain resolved: the reply can end');
});
