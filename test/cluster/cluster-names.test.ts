/** The NATS names of a cluster: validated cluster names, one stream, run ids made safe subject tokens. */
import t from 'tap';
import { clusterNames, subjectToken } from '../../src/cluster/cluster-names.js';

t.test('names carry the cluster name', async (t) => {
  const names = clusterNames('prod-eu_1');
  t.equal(names.stream, 'FLOWSVC_prod-eu_1_RUNS');
  t.equal(names.runSubject('run-42_a'), 'flowsvc.prod-eu_1.run.run-42_a', 'a well-formed run id is used as it is');
  t.equal(names.runSubjects, 'flowsvc.prod-eu_1.run.>');
  t.equal(names.busSubject('wake'), 'flowsvc.prod-eu_1.bus.wake');
  t.not(clusterNames('prod').stream, clusterNames('PROD').stream, 'names differing in case are different clusters');
});

t.test('a cluster name must be a short plain token', async (t) => {
  for (const bad of ['', 'a.b', 'a*', 'a>', 'with space', 'x'.repeat(33), 'é']) {
    t.throws(() => clusterNames(bad), /invalid cluster name/, JSON.stringify(bad));
  }
  t.doesNotThrow(() => clusterNames('x'.repeat(32)));
});

t.test('run ids that are not subject tokens are encoded, and stay distinct', async (t) => {
  t.equal(subjectToken('a.b'), 'a~2Eb');
  t.equal(subjectToken('a*>'), 'a~2A~3E');
  t.equal(subjectToken('a b'), 'a~20b');
  t.equal(subjectToken('~2E'), '~7E2E', 'the escape character is itself escaped, so no id takes another one\'s token');
  t.equal(subjectToken('é'), '~C3~A9', 'UTF-8 bytes');
  for (const id of ['a.b', 'a~2Eb', '~', 'x y', 'é']) t.match(subjectToken(id), /^[A-Za-z0-9_~-]+$/, `${id} is one safe token`);
  t.throws(() => subjectToken(''), /empty/);
});
