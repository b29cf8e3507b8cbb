/** The store contract for vertex builds: by flow then vertex, oldest first, the newest few kept per vertex, deleted by flow. */
import { randomUUID } from 'node:crypto';
import type { Test } from 'tap';
import type { VertexBuildRecord } from '../../../protocol/build.schema.js';
import { freshStore, type OpenStore } from './opened.js';

const build = (flowId: string, vertexId: string, text: string): VertexBuildRecord => ({
  id: vertexId,
  build_id: randomUUID(),
  flow_id: flowId,
  timestamp: new Date().toISOString(),
  valid: true,
  params: 'Built successfully ✨',
  data: { results: { message: { text } } },
  artifacts: { message: { raw: text } },
});
const texts = (records: VertexBuildRecord[]) => records.map((r) => `${r.id}:${(r.data as any).results.message.text}`);

export function vertexBuildsContract(t: Test, open: OpenStore): void {
  t.test('vertex builds: by flow, vertex, then oldest first; the newest kept per vertex; deleted by flow; kept across a restart', async (t) => {
    const { store, restart } = await freshStore(t, open);
    await store.vertexBuilds.add([build('f1', 'B-1', 'one'), build('f1', 'A-1', 'one'), build('f2', 'A-1', 'other flow')], 2);
    await store.vertexBuilds.add([build('f1', 'A-1', 'two')], 2);
    t.same(texts(await store.vertexBuilds.listByFlow('f1')), ['A-1:one', 'A-1:two', 'B-1:one']);
    await store.vertexBuilds.add([build('f1', 'A-1', 'three')], 2);
    t.same(texts(await store.vertexBuilds.listByFlow('f1')), ['A-1:two', 'A-1:three', 'B-1:one'], 'the oldest of A-1 went');
    t.same(await store.vertexBuilds.listByFlow('f3'), [], 'a flow with none');
    await store.vertexBuilds.deleteByFlow('f1');
    t.same(await store.vertexBuilds.listByFlow('f1'), []);
    const reopened = await restart();
    t.same(texts(await reopened.vertexBuilds.listByFlow('f2')), ['A-1:other flow'], 'kept across a restart');
  });
}
