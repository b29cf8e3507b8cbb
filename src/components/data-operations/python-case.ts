/**
 * Python's case rules for str.title, str.capitalize and str.swapcase, for all of Unicode. JavaScript has upper and
 * lower case (with Python's special cases: ß → SS, final sigma) but no title case, which differs from upper case
 * for digraphs (ǆ → ǅ), ligatures (ﬁ → Fi), ß (→ Ss) and Greek letters with a subscript iota.
 */

/** Title-case forms that are not simply the upper-case form (Unicode SpecialCasing and UnicodeData). */
const TITLE_SPECIAL: Readonly<Record<string, string>> = {
  'ß': 'Ss', 'ﬀ': 'Ff', 'ﬁ': 'Fi', 'ﬂ': 'Fl', 'ﬃ': 'Ffi', 'ﬄ': 'Ffl', 'ﬅ': 'St', 'ﬆ': 'St',
  'և': 'Եւ', 'ﬓ': 'Մն', 'ﬔ': 'Մե', 'ﬕ': 'Մի', 'ﬖ': 'Վն', 'ﬗ': 'Մխ', 'ŉ': 'ʼN',
  'Ǆ': 'ǅ', 'ǅ': 'ǅ', 'ǆ': 'ǅ', 'Ǉ': 'ǈ', 'ǈ': 'ǈ', 'ǉ': 'ǈ', 'Ǌ': 'ǋ', 'ǋ': 'ǋ', 'ǌ': 'ǋ', 'Ǳ': 'ǲ', 'ǲ': 'ǲ', 'ǳ': 'ǲ',
  'ᾲ': 'Ὰͅ', 'ᾴ': 'Άͅ', 'ᾷ': 'ᾼ͂', 'ῂ': 'Ὴͅ', 'ῄ': 'Ήͅ', 'ῇ': 'ῌ͂', 'ῲ': 'Ὼͅ', 'ῴ': 'Ώͅ', 'ῷ': 'ῼ͂',
};

const CASED_RUN = /\p{Cased}+|\P{Cased}+/gu;

/** The title-case form of one code point. */
export function titleChar(c: string): string {
  const special = TITLE_SPECIAL[c];
  if (special) return special;
  const code = c.codePointAt(0)!;
  // Greek with ypogegrammeni: the title form is the prosgegrammeni letter (which is its own title form).
  if (code >= 0x1f80 && code <= 0x1faf) return (code & 0x8) === 0 ? String.fromCodePoint(code + 8) : c;
  if (code === 0x1fb3 || code === 0x1fc3 || code === 0x1ff3) return String.fromCodePoint(code + 9);
  if (code === 0x1fbc || code === 0x1fcc || code === 0x1ffc) return c;
  return c.toUpperCase();
}

/** str.title: a cased character after a cased one is lowered; any other character gets its title form. */
export function pythonTitle(text: string): string {
  let out = '';
  // Runs of cased characters are lowered as a whole so that a final sigma is seen in context.
  for (const run of text.match(CASED_RUN) ?? []) {
    if (!/^\p{Cased}/u.test(run)) {
      out += run;
      continue;
    }
    const first = String.fromCodePoint(run.codePointAt(0)!);
    out += titleChar(first) + run.slice(first.length).toLowerCase();
  }
  return out;
}

/** str.capitalize (Python 3.8+): the first character in title case, the rest lowered. */
export function pythonCapitalize(text: string): string {
  if (text === '') return '';
  const first = String.fromCodePoint(text.codePointAt(0)!);
  return titleChar(first) + text.slice(first.length).toLowerCase();
}

/** str.swapcase: upper-case characters are lowered and lower-case ones raised; title-case letters stay. */
export function pythonSwapcase(text: string): string {
  return text.replace(/\p{Uppercase}+|\p{Lowercase}+/gu, (run) => (/^\p{Uppercase}/u.test(run) ? run.toLowerCase() : run.toUpperCase()));
}
