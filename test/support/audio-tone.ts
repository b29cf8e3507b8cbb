/** Audio made in the test: a sine tone and silence, PCM16 mono 24 kHz, as a microphone would send them. */
const RATE = 24_000;

export function tone(ms: number, hz = 440, amplitude = 8000): Buffer {
  const samples = Math.round((RATE * ms) / 1000);
  const pcm = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) pcm.writeInt16LE(Math.round(amplitude * Math.sin((2 * Math.PI * hz * i) / RATE)), i * 2);
  return pcm;
}

export const silence = (ms: number): Buffer => Buffer.alloc(Math.round((RATE * ms) / 1000) * 2);

/** Root mean square of PCM16 samples: how the fakes tell speech from silence. */
export function rms(pcm: Buffer): number {
  let sum = 0;
  const samples = pcm.length >> 1;
  for (let i = 0; i < samples; i++) sum += pcm.readInt16LE(i * 2) ** 2;
  return samples ? Math.sqrt(sum / samples) : 0;
}
