/** Langflow's MCP tool names: sanitised, lowercase, cut, and made unique with `_1`, `_2`. */
import t from 'tap';
import { sanitizeMcpName, uniqueMcpName } from '../src/langflow/mcp-tool-names.js';

t.test('sanitising drops emoji, diacritics and punctuation, joins words with _, lowercases', async (t) => {
  t.equal(sanitizeMcpName('My Échö Flow! 🚀'), 'my_echo_flow');
  t.equal(sanitizeMcpName('  spaced -- out__name  '), 'spaced_out_name');
  t.equal(sanitizeMcpName('3 Little Pigs'), '_3_little_pigs', 'a leading digit gets an underscore');
  t.equal(sanitizeMcpName('Ünïcödé Ñame'), 'unicode_name');
  t.equal(sanitizeMcpName('🚀🚀'), 'unnamed', 'nothing left is "unnamed"');
  t.equal(sanitizeMcpName('!!!'), 'unnamed');
  t.equal(sanitizeMcpName('日本語 フロー'), '日本語_フロー', 'letters of any script stay');
});

t.test('a long name is cut to the limit, without a trailing underscore', async (t) => {
  const long = 'a'.repeat(45) + ' b';
  t.equal(sanitizeMcpName(long), 'a'.repeat(45), 'cut at 46 then the trailing _ dropped');
  t.equal(sanitizeMcpName('abc def', 4), 'abc');
});

t.test('unique names: the base when free, then _1, _2 within 30 characters', async (t) => {
  const taken = new Set<string>();
  const names = ['echo', 'echo', 'echo'].map((base) => {
    const name = uniqueMcpName(base, taken);
    taken.add(name);
    return name;
  });
  t.same(names, ['echo', 'echo_1', 'echo_2']);
  const long = 'x'.repeat(40);
  const first = uniqueMcpName(long, new Set());
  t.equal(first, 'x'.repeat(30));
  t.equal(uniqueMcpName(long, new Set([first])), `${'x'.repeat(28)}_1`);
});
