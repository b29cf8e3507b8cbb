/**
 * Files: a 200 MB upload and download through the service against copying and reading the same bytes with fs
 * streams in the same run (target >= 0.8 of each), the service's resident memory during the upload against its
 * idle figure (target: within 32 MB; the upload streams to disk), and 100 concurrent 1 MB uploads (all stored).
 * A bare node:http server piping the body to a file and back (raw-file-server.ts) is measured beside it: the floor
 * of the transport and the disk, before any parsing or record of ours.
 */
import { createReadStream, createWriteStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { memoryOf } from '../support/proc.js';
import { BENCH_API_KEY, startRawFileServer, startService, type ServerProcess } from '../support/processes.js';
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

interface UploadMeasure {
  seconds: number;
  /** Peak resident memory during the upload over the figure just before it, in MB. */
  growthMb: number;
  idleMb: number;
  body: string;
}

/** One upload of `path`, with the server's resident memory sampled while it streams. */
async function measureUpload(server: ServerProcess, path: string, size: number): Promise<UploadMeasure> {
  const pid = server.child.pid!;
  const idle = memoryOf(pid).rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, memoryOf(pid).rss)), 20);
  let body = '';
  const uploadS = await seconds(async () => {
    const reply = await uploadFile(server.url, path, size, 'big.bin');
    if (reply.status !== 201) throw new Error(`upload answered ${reply.status}: ${reply.body}`);
    body = reply.body;
  });
  clearInterval(sampler);
  return { seconds: uploadS, growthMb: (peak - idle) / MB, idleMb: idle / MB, body };
}

// node:http for the client too: fetch's web streams cost more than the server being measured.
const download = (url: string) =>
  seconds(
    () =>
      new Promise<void>((resolve, reject) => {
        request(url, { headers: { 'x-api-key': BENCH_API_KEY } }, (res) => pipeline(res, sink()).then(resolve, reject))
          .on('error', reject)
          .end();
      }),
  );

export async function filesScenario(): Promise<Row[]> {
  const dir = mkdtempSync(join(tmpdir(), 'flowsvc-bench-files-'));
  const service = await startService({ FLOWSVC_MAX_FILE_SIZE_UPLOAD: '1024' });
  const bare = await startRawFileServer();
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
    await uploadFile(bare.url, small, MB, 'warm-up.bin');
    const bareUpload = await measureUpload(bare, big, BIG_MB * MB);
    const upload = await measureUpload(service, big, BIG_MB * MB);
    const uploaded = JSON.parse(upload.body) as { id: string };
    const bareDownloadS = await download(`${bare.url}/upload`);
    const downloadS = await download(`${service.url}/api/v2/files/${uploaded.id}`);

    const replies = await Promise.all(Array.from({ length: SMALL }, (_, i) => uploadFile(service.url, small, MB, `small-${i}.bin`)));
    const listed = (await (await fetch(`${service.url}/api/v2/files`, { headers: { 'x-api-key': BENCH_API_KEY } })).json()) as unknown[];
    const stored = replies.filter((reply) => reply.status === 201).length;

    const rate = (s: number) => BIG_MB / s;
    const growth = upload.growthMb;
    return [
      { scenario: 'files', measure: `upload ${BIG_MB} MB, MB/s`, value: rate(upload.seconds), unit: 'MB/s', baseline: rate(copyS), baselineName: 'fs stream copy', ratio: copyS / upload.seconds, target: `>= ${THROUGHPUT_TARGET}`, pass: copyS / upload.seconds >= THROUGHPUT_TARGET },
      { scenario: 'files', measure: `upload ${BIG_MB} MB against bare node:http, MB/s`, value: rate(upload.seconds), unit: 'MB/s', baseline: rate(bareUpload.seconds), baselineName: 'node:http piped to a file', ratio: bareUpload.seconds / upload.seconds },
      { scenario: 'files', measure: `download ${BIG_MB} MB, MB/s`, value: rate(downloadS), unit: 'MB/s', baseline: rate(readS), baselineName: 'fs stream read', ratio: readS / downloadS, target: `>= ${THROUGHPUT_TARGET}`, pass: readS / downloadS >= THROUGHPUT_TARGET },
      { scenario: 'files', measure: `download ${BIG_MB} MB against bare node:http, MB/s`, value: rate(downloadS), unit: 'MB/s', baseline: rate(bareDownloadS), baselineName: 'node:http streaming the file', ratio: bareDownloadS / downloadS },
      { scenario: 'files', measure: 'RSS growth during the upload over idle', value: growth, unit: 'MB', baseline: upload.idleMb, baselineName: 'idle RSS, after a first small upload', target: `< ${RSS_TARGET_MB} MB`, pass: growth < RSS_TARGET_MB },
      { scenario: 'files', measure: 'RSS growth during the upload, bare node:http', value: bareUpload.growthMb, unit: 'MB', baseline: growth, baselineName: "the service's growth" },
      { scenario: 'files', measure: `${SMALL} concurrent 1 MB uploads stored`, value: stored, unit: 'files', target: `= ${SMALL}`, pass: stored === SMALL && listed.length === SMALL + 2 },
    ];
  } finally {
    await Promise.all([service.stop(), bare.stop()]);
    rmSync(dir, { recursive: true, force: true });
  }
}
