import t from 'tap';
import { isMetadataHostName, privateRangeOf } from '../src/components/shared/private-addresses.js';
import { checkedAddresses, PrivateNetworkRefusal, type ResolvedAddress } from '../src/components/shared/private-network-guard.js';

const LOOPBACK = 'a loopback address';
const UNSPECIFIED = 'an unspecified address';
const PRIVATE = 'a private network address';
const LINK_LOCAL = 'a link-local address (where cloud metadata services answer)';

t.test('IPv4: loopback, private, link-local and unspecified ranges are named; public addresses pass', async (t) => {
  const cases: [string, string | undefined][] = [
    ['127.0.0.1', LOOPBACK],
    ['127.255.255.254', LOOPBACK],
    ['10.0.0.1', PRIVATE],
    ['172.16.0.1', PRIVATE],
    ['172.31.255.255', PRIVATE],
    ['192.168.1.10', PRIVATE],
    ['100.100.100.200', PRIVATE],
    ['169.254.169.254', LINK_LOCAL],
    ['0.0.0.0', UNSPECIFIED],
    ['8.8.8.8', undefined],
    ['1.1.1.1', undefined],
    ['172.32.0.1', undefined],
    ['172.15.255.255', undefined],
    ['192.169.0.1', undefined],
    ['128.0.0.1', undefined],
  ];
  for (const [address, range] of cases) t.equal(privateRangeOf(address), range, address);
});

t.test('IPv6: loopback, unique local, link-local, unspecified and IPv4-mapped forms; public addresses pass', async (t) => {
  const cases: [string, string | undefined][] = [
    ['::1', LOOPBACK],
    ['[::1]', LOOPBACK],
    ['0:0:0:0:0:0:0:1', LOOPBACK],
    ['::', UNSPECIFIED],
    ['fc00::1', PRIVATE],
    ['fd12:3456:789a::1', PRIVATE],
    ['fe80::1', LINK_LOCAL],
    ['fe80::1%eth0', LINK_LOCAL],
    ['::ffff:127.0.0.1', LOOPBACK],
    ['::ffff:7f00:1', LOOPBACK],
    ['0:0:0:0:0:ffff:7f00:0001', LOOPBACK],
    ['::ffff:169.254.169.254', LINK_LOCAL],
    ['::ffff:10.1.2.3', PRIVATE],
    ['::ffff:0.0.0.0', UNSPECIFIED],
    ['2606:4700::1', undefined],
    ['2001:4860:4860::8888', undefined],
    ['::ffff:8.8.8.8', undefined],
  ];
  for (const [address, range] of cases) t.equal(privateRangeOf(address), range, address);
});

t.test('host names are not addresses; metadata host names are known by name', async (t) => {
  t.equal(privateRangeOf('localhost'), undefined, 'a name is resolved first (checkedAddresses), never judged by its spelling');
  for (const name of ['metadata.google.internal', 'METADATA.google.internal.', 'metadata', 'instance-data']) t.ok(isMetadataHostName(name), name);
  for (const name of ['example.com', 'metadata.example.com', 'google.internal']) t.notOk(isMetadataHostName(name), name);
});

/** A resolver stub answering from a table, recording what it was asked. */
function resolverOf(table: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    return (table[hostname] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { asked, resolve };
}

t.test('a host is judged by every address it resolves to, not by its name', async (t) => {
  const { asked, resolve } = resolverOf({
    'public.test': ['8.8.8.8', '2606:4700::1'],
    'rebind.test': ['127.0.0.1'],
    'mixed.test': ['8.8.8.8', '10.0.0.7'],
    'mapped.test': ['::ffff:169.254.169.254'],
  });
  t.same(await checkedAddresses('public.test', { resolve }), [{ address: '8.8.8.8', family: 4 }, { address: '2606:4700::1', family: 6 }], 'public addresses are returned to connect to');
  await t.rejects(checkedAddresses('rebind.test', { resolve }), new PrivateNetworkRefusal('rebind.test', `resolves to ${LOOPBACK}`));
  await t.rejects(checkedAddresses('mixed.test', { resolve }), new PrivateNetworkRefusal('mixed.test', `resolves to ${PRIVATE}`), 'one private address among public ones refuses the name');
  await t.rejects(checkedAddresses('mapped.test', { resolve }), new PrivateNetworkRefusal('mapped.test', `resolves to ${LINK_LOCAL}`));
  t.same(asked, ['public.test', 'rebind.test', 'mixed.test', 'mapped.test']);
});

t.test('literal addresses and metadata names are judged without asking DNS', async (t) => {
  const { asked, resolve } = resolverOf({ 'metadata.google.internal': ['8.8.8.8'] });
  await t.rejects(checkedAddresses('127.0.0.1', { resolve }), new PrivateNetworkRefusal('127.0.0.1', `resolves to ${LOOPBACK}`));
  await t.rejects(checkedAddresses('[::1]', { resolve }), new PrivateNetworkRefusal('::1', `resolves to ${LOOPBACK}`), 'a URL host may keep its brackets');
  await t.rejects(checkedAddresses('169.254.169.254', { resolve }), new PrivateNetworkRefusal('169.254.169.254', `resolves to ${LINK_LOCAL}`));
  await t.rejects(checkedAddresses('metadata.google.internal', { resolve }), new PrivateNetworkRefusal('metadata.google.internal', 'is a cloud metadata host name'), 'refused whatever it resolves to');
  t.same(await checkedAddresses('8.8.8.8', { resolve }), [{ address: '8.8.8.8', family: 4 }]);
  t.same(asked, [], 'no lookup was needed');
});

t.test('the system resolver is used by default: localhost is refused', async (t) => {
  await t.rejects(checkedAddresses('localhost'), new PrivateNetworkRefusal('localhost', `resolves to ${LOOPBACK}`));
});
