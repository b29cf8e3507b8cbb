/** The voice pieces with rules of their own: cutting an answer into sentences, cutting audio into utterances. */
import t from 'tap';
import { EnergyVad, UTTERANCE_MAX_BYTES } from '../src/services/voice/energy-vad.js';
import { SentenceSplitter } from '../src/services/voice/sentence-splitter.js';
import { wavOf } from '../src/services/voice/wav.js';
import { silence, tone } from './support/audio-tone.js';

t.test('sentences complete as tokens arrive; the rest comes at the end', async (t) => {
  const splitter = new SentenceSplitter();
  t.same(splitter.push('Hello'), []);
  t.same(splitter.push(' there.'), [], 'a period alone may be a decimal point or an abbreviation: wait for what follows');
  t.same(splitter.push(' How'), ['Hello there.']);
  t.same(splitter.push(' are you? Fine! Pi is 3.14'), ['How are you?', 'Fine!']);
  t.same(splitter.push('\nNext line'), ['Pi is 3.14']);
  t.equal(splitter.end(), 'Next line');
  t.equal(splitter.end(), undefined, 'nothing twice');
});

t.test('a run-on answer is cut at a space rather than waited for', async (t) => {
  const splitter = new SentenceSplitter();
  const sentences = splitter.push('word '.repeat(200));
  t.ok(sentences.length >= 2);
  t.ok(sentences.every((s) => s.length <= 400 && !s.startsWith(' ')));
});

t.test('the VAD cuts one utterance from a tone between silences, with a little padding before it', async (t) => {
  const heard: Buffer[] = [];
  let started = 0;
  const vad = new EnergyVad({ started: () => started++, ended: (utterance) => heard.push(utterance) });
  vad.push(silence(500));
  t.equal(started, 0, 'silence is not speech');
  vad.push(tone(300));
  t.equal(started, 1);
  vad.push(silence(200));
  t.equal(heard.length, 0, 'a short pause does not end it');
  vad.push(silence(200));
  t.equal(heard.length, 1, '300 ms of quiet ends it');
  // 100 ms of padding + 300 ms of tone + the quiet until the end, at 48 000 bytes a second.
  t.ok(heard[0].length >= 48 * 400 && heard[0].length <= 48 * 800, `${heard[0].length} bytes`);
});

t.test('the VAD ends an utterance on commit, and caps one that never pauses', async (t) => {
  const heard: Buffer[] = [];
  const vad = new EnergyVad({ started: () => {}, ended: (utterance) => heard.push(utterance) });
  vad.push(tone(200));
  vad.flush();
  t.equal(heard.length, 1);
  vad.flush();
  t.equal(heard.length, 1, 'nothing under way: no utterance');
  for (let i = 0; i < 65; i++) vad.push(tone(1000));
  t.ok(heard.length >= 2, 'a minute of speech is cut');
  t.ok(heard.every((u) => u.length <= UTTERANCE_MAX_BYTES));
});

t.test('WAV: a 44-byte PCM header before the samples', async (t) => {
  const wav = wavOf(Buffer.alloc(480));
  t.equal(wav.length, 524);
  t.equal(wav.toString('ascii', 0, 4), 'RIFF');
  t.equal(wav.toString('ascii', 8, 12), 'WAVE');
  t.equal(wav.readUInt32LE(24), 24_000);
  t.equal(wav.readUInt32LE(40), 480);
});
