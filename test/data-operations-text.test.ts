import t from 'tap';
import { createMessage } from '../src/values/message.js';
import { jsonOf, messageText, rowsOf, runOperation } from './support/data-operations.js';

// Expected values were produced by CPython 3 (str methods and the re module), as Langflow runs them.
const text = (operation: string, text_input: string, params: Record<string, unknown> = {}) => messageText({ input_type: 'Text', operation, text_input, ...params });

t.test('Word Count: only the enabled counts, Python whitespace, code points', async (t) => {
  const all = (words: number, unique: number, chars: number, noSpaces: number, lines: number, nonEmpty: number) => ({
    word_count: words, unique_words: unique, character_count: chars, character_count_no_spaces: noSpaces, line_count: lines, non_empty_lines: nonEmpty,
  });
  const cases: [string, Record<string, number>][] = [
    ['hello world hello\n\nbye 😀', all(5, 4, 24, 21, 3, 2)],
    ['', all(0, 0, 0, 0, 0, 0)],
    ['   \n  ', all(0, 0, 0, 0, 0, 0)],
    ['a\u3000b\u00a0c\u200bd', all(3, 3, 7, 7, 1, 1)],
    ['one\n\ntwo\n  \n', all(2, 2, 12, 10, 5, 2)],
    ['Ünïcödé café café', all(3, 2, 17, 15, 1, 1)],
  ];
  for (const [input, expected] of cases) t.same(await jsonOf({ input_type: 'Text', operation: 'Word Count', text_input: input }), expected, JSON.stringify(input));

  t.same(await jsonOf({ operation: 'Word Count', text_input: 'a b', count_words: false, count_lines: false }), { character_count: 3, character_count_no_spaces: 2 });
  t.same(await jsonOf({ operation: 'Word Count', text_input: 'a b', count_characters: false, count_lines: false }), { word_count: 2, unique_words: 2 });
  t.same(await jsonOf({ operation: 'Word Count', text_input: 'a b', count_words: false, count_characters: false, count_lines: false }), {});
  const outputs = await runOperation({ operation: 'Word Count', text_input: 'x' });
  t.same(Object.keys(outputs), ['data_output'], 'Word Count gives JSON only');
});

t.test('Case Conversion follows Python for all of Unicode', async (t) => {
  // [input, upper, lower, title, capitalize, swapcase]
  const cases: string[][] = [
    ['hello WORLD', 'HELLO WORLD', 'hello world', 'Hello World', 'Hello world', 'HELLO world'],
    ["they're bill's friends from the UK", "THEY'RE BILL'S FRIENDS FROM THE UK", "they're bill's friends from the uk", "They'Re Bill'S Friends From The Uk", "They're bill's friends from the uk", "THEY'RE BILL'S FRIENDS FROM THE uk"],
    ['ǆungla ǅ ǄX', 'ǄUNGLA Ǆ ǄX', 'ǆungla ǆ ǆx', 'ǅungla ǅ ǅx', 'ǅungla ǆ ǆx', 'ǄUNGLA ǅ ǆx'],
    ['straße ﬁne', 'STRASSE FINE', 'straße ﬁne', 'Straße Fine', 'Straße ﬁne', 'STRASSE FINE'],
    ['ΣΑΣ ΟΔΟΣ', 'ΣΑΣ ΟΔΟΣ', 'σας οδος', 'Σας Οδος', 'Σας οδος', 'σας οδος'],
    ['1st place 2ND', '1ST PLACE 2ND', '1st place 2nd', '1St Place 2Nd', '1st place 2nd', '1ST PLACE 2nd'],
    ['éCOLE ÉLÈVE', 'ÉCOLE ÉLÈVE', 'école élève', 'École Élève', 'École élève', 'École élève'],
    ['i\u0307stanbul \u0130STANBUL', 'I\u0307STANBUL \u0130STANBUL', 'i\u0307stanbul i\u0307stanbul', 'I\u0307Stanbul \u0130stanbul', 'I\u0307stanbul i\u0307stanbul', 'I\u0307STANBUL i\u0307stanbul'],
    ['ᾳ ᾼ ᾀ', 'ΑΙ ΑΙ ἈΙ', 'ᾳ ᾳ ᾀ', 'ᾼ ᾼ ᾈ', 'ᾼ ᾳ ᾀ', 'ΑΙ ᾼ ἈΙ'],
    ['ǳ', 'Ǳ', 'ǳ', 'ǲ', 'ǲ', 'Ǳ'],
    ['hello\tworld\nNEW line', 'HELLO\tWORLD\nNEW LINE', 'hello\tworld\nnew line', 'Hello\tWorld\nNew Line', 'Hello\tworld\nnew line', 'HELLO\tWORLD\nnew LINE'],
    ['', '', '', '', '', ''],
    ['123 !?', '123 !?', '123 !?', '123 !?', '123 !?', '123 !?'],
  ];
  const kinds = ['uppercase', 'lowercase', 'title', 'capitalize', 'swapcase'];
  for (const [input, ...expected] of cases) {
    for (const [k, kind] of kinds.entries()) t.equal(await text('Case Conversion', input, { case_type: kind }), expected[k], `${kind}(${input})`);
  }
  t.equal(await text('Case Conversion', 'MiXeD'), 'mixed', 'lowercase is the default');
  await t.rejects(text('Case Conversion', 'x', { case_type: 'sentence' }), { name: 'ComponentError', message: /Case Conversion: unknown case type "sentence" \(case_type\)/ });
});

t.test('Text Replace: literal by default, Python regexes and templates with use_regex', async (t) => {
  t.equal(await text('Text Replace', 'a.b.c', { search_pattern: '.', replacement_text: '-' }), 'a-b-c', 'literal mode: a dot is a dot');
  t.equal(await text('Text Replace', 'x $1 y', { search_pattern: '$1', replacement_text: '\\1' }), 'x \\1 y', 'literal mode: nothing is special');
  t.equal(await text('Text Replace', 'unchanged', { search_pattern: '', replacement_text: 'zzz' }), 'unchanged', 'an empty pattern is a no-op');
  t.equal(await text('Text Replace', '', { search_pattern: 'a', replacement_text: 'b', use_regex: true }), '');
  const regex: [pattern: string, replacement: string, input: string, expected: string][] = [
    ['(\\w+)@(\\w+)', '\\2 at \\1', 'joe@site and ann@web', 'site at joe and web at ann'],
    ['(?P<first>\\w+) (?P<last>\\w+)', '\\g<last>, \\g<first>', 'Ada Lovelace', 'Lovelace, Ada'],
    ['\\s+', ' ', 'a  b\t\tc\n\nd', 'a b c d'],
    ['x*', '-', 'abxd', '-a-b--d-'],
    ['o', '$1\\n\\\\', 'foo', 'f$1\n\\$1\n\\'],
    ['(a)|b', '[\\1]', 'ab', '[a][]'],
    ['\\d', '\\g<0>\\g<0>', 'a1b2', 'a11b22'],
    ['é', 'e', 'café ÉTÉ', 'cafe ÉTÉ'],
    ['(?i)é', 'e', 'café ÉTÉ', 'cafe eTe'],
  ];
  for (const [pattern, replacement, input, expected] of regex) {
    t.equal(await text('Text Replace', input, { search_pattern: pattern, replacement_text: replacement, use_regex: true }), expected, `re.sub(${pattern}, ${replacement})`);
  }
  await t.rejects(text('Text Replace', 'x', { search_pattern: '(a', use_regex: true }), { name: 'ComponentError', message: /Text Replace: invalid regex pattern '\(a' \(search_pattern\)/ });
  await t.rejects(text('Text Replace', 'x', { search_pattern: '(a)', replacement_text: '\\2', use_regex: true }), { message: /Text Replace: invalid replacement '\\2' \(replacement_text\).*invalid group reference 2/ });
  await t.rejects(text('Text Replace', 'x', { search_pattern: 'a', replacement_text: '\\q', use_regex: true }), { message: /bad escape \\q/ });
});

t.test('Text Extract returns matches, or capture groups as re.findall does', async (t) => {
  const cases: [pattern: string, input: string, max: number, expected: string][] = [
    ['(\\w+)@(\\w+)\\.com', 'john@example.com, jane@test.com', 10, "('john', 'example')\n('jane', 'test')"],
    ['\\d+', 'a1 b22 c333 ٣٣', 2, '1\n22'],
    ['\\d+', 'a1 b22 c333', 0, '1\n22\n333'],
    ['(\\d+)', 'x10 y20', 10, '10\n20'],
    ['\\w+', 'café naïve Ünïcödé', 10, 'café\nnaïve\nÜnïcödé'],
    ['\\bcat\\b', 'cat concat café cat', 10, 'cat\ncat'],
    ['(?P<key>\\w+)=(?P<val>\\w*)', 'a=1 b= c=3', 10, "('a', '1')\n('b', '')\n('c', '3')"],
    ['^\\w+$', 'first\nsecond', 10, ''],
    ['(?m)^\\w+$', 'first\nsecond\r\nthird', 10, 'first\nthird'],
    ['(?i)HELLO', 'hello HeLLo', 10, 'hello\nHeLLo'],
    ['a|(b)', 'ab', 10, '\nb'],
    ['x*', 'axb', 10, '\nx\n\n'],
    ['(?<=\\$)\\d+(?:\\.\\d\\d)?', 'costs $12.50 or $3', 10, '12.50\n3'],
    ['(\\w)\\1', 'aabbcd', 10, 'a\nb'],
    ['.', 'a\nb', 10, 'a\nb'],
    ['(?s)a.b', 'a\nb', 10, 'a\nb'],
    ['end$', 'the end\n', 10, 'end'],
    ['😀+', 'x😀😀y', 10, '😀😀'],
    ['[^\\W\\d]+', 'abc123déf', 10, 'abc\ndéf'],
    ['a{,2}', 'aaa', 10, 'aa\na\n'],
    ['\\{x}', '{x}', 10, '{x}'],
    ['(?x) a  b # comment', 'ab', 10, 'ab'],
    ['[]x]+', 'a]x]b', 10, ']x]'],
    ['no match here', 'text', 10, ''],
  ];
  for (const [pattern, input, max, expected] of cases) t.equal(await text('Text Extract', input, { extract_pattern: pattern, max_matches: max }), expected, `findall(${pattern})`);
  t.equal(await text('Text Extract', 'abc', { extract_pattern: '' }), '', 'an empty pattern extracts nothing');
  t.equal(await text('Text Extract', '', { extract_pattern: '\\w' }), '', 'empty text');
  t.same((await runOperation({ input_type: 'Text', operation: 'Text Extract', text_input: 'a1b2', extract_pattern: '(\\w)(\\d)' }, { requested: ['data_output'] })).data_output.data, { items: [['a', '1'], ['b', '2']] }, 'as JSON, the groups are lists');
  await t.rejects(text('Text Extract', 'x', { extract_pattern: '[a-' }), { name: 'ComponentError', message: "Text Extract: invalid regex pattern '[a-' (extract_pattern): unterminated character set" });
  await t.rejects(text('Text Extract', 'x', { extract_pattern: 'a++' }), { message: /possessive quantifiers are not supported/ });
  await t.rejects(text('Text Extract', 'x', { extract_pattern: '\\d', max_matches: -1 }), { message: /Text Extract: Max Matches \(max_matches\) must be 0 \(all\) or more, got -1/ });
});

t.test('Text Head, Text Tail and Text Strip count code points', async (t) => {
  const s = '  Héllo 😀 wörld  ';
  t.equal(await text('Text Head', s, { head_characters: 3 }), '  H');
  t.equal(await text('Text Tail', s, { tail_characters: 3 }), 'd  ');
  t.equal(await text('Text Head', '😀😀😀', { head_characters: 2 }), '😀😀');
  t.equal(await text('Text Tail', '😀ab😀', { tail_characters: 2 }), 'b😀');
  t.equal(await text('Text Head', 'abc', { head_characters: 0 }), '');
  t.equal(await text('Text Tail', 'abc', { tail_characters: 0 }), '');
  t.equal(await text('Text Head', 'abc', { head_characters: 99 }), 'abc');
  t.equal(await text('Text Head', 'x'.repeat(150)), 'x'.repeat(100), 'the default is 100 characters');
  await t.rejects(text('Text Head', 'abc', { head_characters: -1 }), { name: 'ComponentError', message: 'Text Head: Characters from Start (head_characters) must be non-negative, got -1' });
  await t.rejects(text('Text Tail', 'abc', { tail_characters: -5 }), { message: 'Text Tail: Characters from End (tail_characters) must be non-negative, got -5' });

  t.equal(await text('Text Strip', s), 'Héllo 😀 wörld');
  t.equal(await text('Text Strip', s, { strip_mode: 'left' }), 'Héllo 😀 wörld  ');
  t.equal(await text('Text Strip', s, { strip_mode: 'right' }), '  Héllo 😀 wörld');
  t.equal(await text('Text Strip', 'xx--ab--xx', { strip_characters: 'x-' }), 'ab', 'the characters are a set');
  t.equal(await text('Text Strip', '\u3000a\u00a0'), 'a', 'Unicode whitespace');
  t.equal(await text('Text Strip', '😀a😀', { strip_characters: '😀' }), 'a');
  await t.rejects(text('Text Strip', 'a', { strip_mode: 'middle' }), { message: /Text Strip: unknown strip mode "middle" \(strip_mode\)/ });
});

t.test('Text Join gives Text and Message; Text Clean works in the documented order', async (t) => {
  const joined = await runOperation({ input_type: 'Text', operation: 'Text Join', text_input: 'first', text_input_2: 'second' });
  t.same(Object.keys(joined), ['text', 'message']);
  t.equal(joined.text.text, 'first\nsecond');
  t.equal(joined.message.text, 'first\nsecond');
  t.equal(await text('Text Join', '', { text_input_2: 'only second' }), 'only second');
  t.equal(await text('Text Join', 'only first'), 'only first');
  t.equal(await text('Text Join', ''), '');
  const fromMessages = await runOperation({ operation: 'Text Join' }, { edges: { text_input: createMessage({ text: 'from an edge' }), text_input_2: createMessage({ text: 'and another' }) } });
  t.equal(fromMessages.message.text, 'from an edge\nand another', 'Messages on edges give their text');

  const s = 'Hello,   wörld!!\n\n  Café #1 — ok?\t😀 ½';
  t.equal(await text('Text Clean', s), 'Hello, wörld!! Café #1 — ok? 😀 ½', 'by default whitespace runs (newlines too) collapse');
  t.equal(await text('Text Clean', s, { remove_special_chars: true }), 'Hello wörld Café 1  ok  ½');
  t.equal(await text('Text Clean', s, { remove_extra_spaces: false, remove_special_chars: true }), 'Hello   wörld\n\n  Café 1  ok\t ½');
  t.equal(await text('Text Clean', s, { remove_extra_spaces: false, remove_empty_lines: true }), 'Hello,   wörld!!\n  Café #1 — ok?\t😀 ½');
  t.equal(await text('Text Clean', s, { remove_extra_spaces: false, remove_special_chars: true, remove_empty_lines: true }), 'Hello   wörld\n  Café 1  ok\t ½');
  t.equal(await text('Text Clean', ''), '');
});

t.test('Text to DataFrame builds a Table', async (t) => {
  const toTable = (input: string, params: Record<string, unknown> = {}) => rowsOf({ input_type: 'Text', operation: 'Text to DataFrame', text_input: input, ...params });
  t.same(await toTable('| name | age |\n| Ada | 36 |\n| Alan | 41.5 |'), [{ name: 'Ada', age: 36 }, { name: 'Alan', age: 41.5 }], 'numeric columns become numbers');
  t.same(await toTable('| a | b |\n|---|---|\n| 1 | x |'), [{ a: '---', b: '---' }, { a: '1', b: 'x' }], "a markdown rule stays a row, as in Langflow, and keeps the column text");
  t.same(await toTable('x,1\ny,2', { table_separator: ',', has_header: false }), [{ col_0: 'x', col_1: 1 }, { col_0: 'y', col_1: 2 }]);
  t.same(await toTable('a;b\n1', { table_separator: ';', has_header: false }), [{ col_0: 'a', col_1: 'b' }, { col_0: 1, col_1: null }], 'short rows are padded with null');
  t.same(await toTable('only | header'), [{ col_0: 'only', col_1: 'header' }], 'one row is data, even with a header');
  t.same(await toTable(''), []);
  t.same(await toTable('\n  \n'), []);
  t.same(await toTable('| ville | 人口 |\n| Zürich | 421878 |'), [{ ville: 'Zürich', 人口: 421878 }]);
  await t.rejects(toTable('| a | b |\n| 1 | 2 | 3 |'), { name: 'ComponentError', message: /Text to DataFrame: header mismatch: 2 column\(s\) in the header vs 3 in data row 1/ });
  await t.rejects(toTable('a', { table_separator: '' }), { message: /table_separator/ });
  const outputs = await runOperation({ input_type: 'Text', operation: 'Text to DataFrame', text_input: 'a|b\n1|2' });
  t.same(Object.keys(outputs), ['dataframe']);
});

t.test('an operation of another input type is an error naming both; names and settings forms', async (t) => {
  await t.rejects(runOperation({ input_type: 'Text', operation: 'Sort' }), { name: 'ComponentError', message: /Operation "Sort" is a Table operation, but the input type is Text \(input_type\)/ });
  await t.rejects(runOperation({ input_type: 'JSON', operation: 'Word Count' }), { message: /Operation "Word Count" is a Text operation, but the input type is JSON/ });
  await t.rejects(runOperation({ input_type: 'Table', operation: [{ name: 'JQ Expression' }] }), { message: /"JQ Expression" is a JSON operation, but the input type is Table/ });
  await t.rejects(runOperation({ operation: 'Transmogrify' }), { message: /Unknown operation "Transmogrify" \(operation\)/ });
  await t.rejects(runOperation({ input_type: 'XML', operation: 'Word Count' }), { message: /Unknown input type "XML" \(input_type\)/ });
  t.equal(await messageText({ input_type: 'Message', operation: [{ name: 'Text Head', icon: 'x' }], text_input: 'abcdef', head_characters: 2 }), 'ab', "Langflow's list form and the Message tab name");
  t.same(await runOperation({ input_type: 'Text', operation: [] , text_input: 'ignored' }).then((o) => o.message.text), '', 'no operation: an empty Message');
  t.same(await jsonOf({ operation: '' }), {}, 'no operation and no input: an empty JSON (the default input type)');
});
