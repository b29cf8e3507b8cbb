/**
 * Files: a 200 MB upload and download through the service against copying and reading the same bytes with fs
 * streams in the same run (target >= 0.8 of each), the service's resident memory during the upload against its
 * idle figure (target: within 32 MB; the upload streams to disk), and 100 concurrent 1 MB uploads (all stored).
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { memoryOf } from '../support/proc.js';
import { BENCH_API_KEY, startService } from '../support/processes.js';
import type { Row } from '../support/report.js';

const BIG_MB = 200;
const SMALL = 100;
const RSS_TARGET_MB = 32;
const THROUGHPUT_TARGET = 0.8;
const MB = 1024 * 1024;

const sink = () => new Writable({ write: (_chunk, _encoding, done) => done() });
const seconds = async (work: () => Promise<unknown>) => {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
};

/** Streams `path` as the `file` part of a multipart POST; resolves with the reply's status and body. */
function uploadFile(url: string, path: string, size: number, name: string): Promise<{ status: number; body: string }> {
  const boundary = `bench-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v2/files`, {
      method: 'POST',
      headers: { 'x-api-key': BENCH_API_KEY, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(head.length + size + tail.length) },
    }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk)).on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.write(head);
    const file = createReadStream(path, { highWaterMark: MB });
    file.on('error', reject);
    file.on('end', () => req.end(tail));
    file.pipe(req, { end: false });
  });
}

export async function filesScenario(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-files-'));
  const service = await startService({ FLOWSVC_MAX_FILE_SIZE_UPLOAD: '1024' });
  try {
    const big = join(dir, 'big.bin');
    const chunk = Buffer.alloc(MB, 7);
    await pipeline(async function* () {
      for (let i = 0; i < BIG_MB; i++) yield chunk;
    }, createWriteStream(big));
    const copyS = await seconds(() => pipeline(createReadStream(big), createWriteStream(join(dir, 'copy.bin'), { flush: true })));
    const readS = await seconds(() => pipeline(createReadStream(join(dir, 'copy.bin')), sink()));

    // Idle is read after one small upload: what the first upload loads once (the multipart parser, its code
    // compiled) is not what an upload holds while it streams.
    const small = join(dir, 'small.bin');
    writeFileSync(small, Buffer.alloc(MB, 3));
    await uploadFile(service.url, small, MB, 'warm-up.bin');
    const pid = service.child.pid!;
    const idle = memoryOf(pid).rss;
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 20);
    let uploaded: { id: string } | undefined;
    const uploadS = await seconds(async () => {
      const reply = await uploadFile(service.url, big, BIG_MB * MB, 'big.bin');
      if (reply.status !== 201) throw new Error(`upload answered ${reply.status}: ${reply.body}`);
      uploaded = JSON.parse(reply.body);
    });
    clearInterval(sampler);
    // node:http for the client too: fetch's web streams cost more than the server being measured.
    const downloadS = await seconds(
      () =>
        new Promise<void>((resolve, reject) => {
          request(`${service.url}/api/v2/files/${uploaded!.id}`, { headers: { 'x-api-key': BENCH_API_KEY } }, (res) => pipeline(res, sink()).then(resolve, reject))
            .on('error', reject)
            .end();
        }),
    );

    const replies = await Promise.all(Array.from({ length: SMALL }, (_, i) => uploadFile(service.url, small, MB, `small-${i}.bin`)));
    const listed = (await (await fetch(`${service.url}/api/v2/files`, { headers: { 'x-api-key': BENCH_API_KEY } })).json()) as unknown[];
    const stored = replies.filter((reply) => reply.status === 201).length;

    const rate = (s: number) => BIG_MB / s;
    const growth = (peak - idle) / MB;
    return [
      { scenario: 'files', measure: `upload ${BIG_MB} MB, MB/s`, value: rate(uploadS), unit: 'MB/s', baseline: rate(copyS), baselineName: 'fs stream copy', ratio: copyS / uploadS, target: `>= ${THROUGHPUT_TARGET}`, pass: copyS / uploadS >= THROUGHPUT_TARGET },
      { scenario: 'files', measure: `download ${BIG_MB} MB, MB/s`, value: rate(downloadS), unit: 'MB/s', baseline: rate(readS), baselineName: 'fs stream read', ratio: readS / downloadS, target: `>= ${THROUGHPUT_TARGET}`, pass: readS / downloadS >= THROUGHPUT_TARGET },
      { scenario: 'files', measure: 'RSS growth during the upload over idle', value: growth, unit: 'MB', baseline: idle / MB, baselineName: 'idle RSS, after a first small upload', target: `< ${RSS_TARGET_MB} MB`, pass: growth < RSS_TARGET_MB },
      { scenario: 'files', measure: `${SMALL} concurrent 1 MB uploads stored`, value: stored, unit: 'files', target: `= ${SMALL}`, pass: stored === SMALL && listed.length === SMALL + 2 },
    ];
  } finally {
    await service.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
