/**
 * jq, from jq-wasm's WebAssembly build, with input and output that scale. jq-wasm's own `raw()` feeds stdin one
 * byte at a time by copying the rest of the buffer (quadratic: a 400 KB document takes ~10 s, 10 MB never ends)
 * and leaks stack on every call (its module breaks after ~300 calls). So we load the same build ourselves, take
 * over the three system calls that carry data (open of /dev/stdin, read, write: memcpy into and out of wasm
 * memory), and restore the stack pointer after each run. Loaded once, lazily; synchronous per query, so it runs
 * inside the sandbox worker, where a deadline can stop a program that loops.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface JqOutcome {
  /** jq's exit status: 0 ok, 5 runtime error, 3 compile error, 2 usage or input error. */
  status: number;
  /** Results, one compact JSON text per line. */
  stdout: Uint8Array;
  stderr: string;
}

interface JqModule {
  callMain(args: string[]): number;
}
type WasmImports = Record<string, (...args: number[]) => number>;
type Factory = (moduleArg: Record<string, unknown>) => Promise<JqModule>;

/** Wasm memory beyond this is given back by starting a fresh instance (wasm memory never shrinks). */
const MEMORY_CEILING = 512 * 2 ** 20;

const require = createRequire(import.meta.url);
let compiled: { factory: Factory; module: WebAssembly.Module; stackAllocExport: string } | undefined;
let current: Promise<JqEngine> | undefined;

/** The shared engine; a broken or bloated one is replaced on the next call. */
export function jqEngine(): Promise<JqEngine> {
  current ??= JqEngine.create().catch((error) => {
    current = undefined;
    throw error;
  });
  return current;
}

export class JqEngine {
  private input: Uint8Array = new Uint8Array(0);
  private offset = 0;
  private stdinFd = -1;
  private out: Uint8Array[] = [];
  private err: Uint8Array[] = [];
  private memory!: WebAssembly.Memory;
  private stackAlloc!: (size: number) => number;
  private jq!: JqModule;
  private broken = false;

  static async create(): Promise<JqEngine> {
    compiled ??= compile();
    const engine = new JqEngine();
    const { factory, module, stackAllocExport } = compiled;
    engine.jq = await factory({
      print: () => {},
      printErr: () => {},
      instantiateWasm: (info: { a: WasmImports }, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => {
        engine.intercept(info.a);
        void WebAssembly.instantiate(module, info as unknown as WebAssembly.Imports).then((instance) => {
          engine.memory = Object.values(instance.exports).find((e): e is WebAssembly.Memory => e instanceof WebAssembly.Memory)!;
          engine.stackAlloc = instance.exports[stackAllocExport] as (size: number) => number;
          receive(instance, module);
        });
        return {};
      },
    });
    return engine;
  }

  /** Runs `query` over one JSON document (UTF-8). */
  run(input: Uint8Array, query: string): JqOutcome {
    this.input = input;
    this.offset = 0;
    this.stdinFd = -1;
    this.out = [];
    this.err = [];
    const stack = this.stackAlloc(0);
    // Emscripten's exit path sets process.exitCode to jq's status; a failed query must not fail the process.
    const exitCode = process.exitCode;
    let status: number;
    try {
      status = this.jq.callMain(['-M', '-c', query, '/dev/stdin']);
    } catch (error) {
      // An abort inside wasm leaves the instance unusable.
      this.retire();
      throw error;
    } finally {
      process.exitCode = exitCode;
      this.stackAlloc(this.stackAlloc(0) - stack);
      this.input = new Uint8Array(0);
    }
    const outcome = { status, stdout: concat(this.out), stderr: Buffer.concat(this.err).toString('utf8').trim() };
    this.out = [];
    this.err = [];
    if (this.memory.buffer.byteLength > MEMORY_CEILING) this.retire();
    return outcome;
  }

  private retire(): void {
    if (this.broken) return;
    this.broken = true;
    current = undefined;
  }

  private intercept(imports: WasmImports): void {
    const key = (name: string) => {
      const found = Object.keys(imports).find((k) => imports[k].name === name);
      if (!found) throw new Error(`jq-wasm: import ${name} not found; this loader fits jq-wasm 1.0.1`);
      return found;
    };
    const [openKey, readKey, writeKey] = [key('___syscall_openat'), key('_fd_read'), key('_fd_write')];
    const [open, read, write] = [imports[openKey], imports[readKey], imports[writeKey]];
    imports[openKey] = (dirfd, path, flags, varargs) => {
      const fd = open(dirfd, path, flags, varargs);
      if (fd >= 0 && this.cString(path) === '/dev/stdin') this.stdinFd = fd;
      return fd;
    };
    imports[readKey] = (fd, iov, iovcnt, pnum) => (fd === this.stdinFd ? this.readStdin(iov, iovcnt, pnum) : read(fd, iov, iovcnt, pnum));
    imports[writeKey] = (fd, iov, iovcnt, pnum) => (fd === 1 || fd === 2 ? this.capture(fd === 1 ? this.out : this.err, iov, iovcnt, pnum) : write(fd, iov, iovcnt, pnum));
  }

  private readStdin(iov: number, iovcnt: number, pnum: number): number {
    const view = new DataView(this.memory.buffer);
    const heap = new Uint8Array(this.memory.buffer);
    let total = 0;
    for (let k = 0; k < iovcnt; k++) {
      const ptr = view.getUint32(iov + k * 8, true);
      const len = view.getUint32(iov + k * 8 + 4, true);
      const take = Math.min(len, this.input.length - this.offset);
      heap.set(this.input.subarray(this.offset, this.offset + take), ptr);
      this.offset += take;
      total += take;
      if (take < len) break;
    }
    view.setUint32(pnum, total, true);
    return 0;
  }

  private capture(sink: Uint8Array[], iov: number, iovcnt: number, pnum: number): number {
    const view = new DataView(this.memory.buffer);
    let total = 0;
    for (let k = 0; k < iovcnt; k++) {
      const ptr = view.getUint32(iov + k * 8, true);
      const len = view.getUint32(iov + k * 8 + 4, true);
      sink.push(new Uint8Array(this.memory.buffer.slice(ptr, ptr + len)));
      total += len;
    }
    view.setUint32(pnum, total, true);
    return 0;
  }

  private cString(ptr: number): string {
    const heap = new Uint8Array(this.memory.buffer);
    let end = ptr;
    while (heap[end] !== 0) end++;
    return Buffer.from(heap.subarray(ptr, end)).toString('utf8');
  }
}

/** The build's factory, its wasm module (compiled once), and the export that moves the stack pointer. */
function compile(): { factory: Factory; module: WebAssembly.Module; stackAllocExport: string } {
  const path = require.resolve('jq-wasm/dist/build/jq.js');
  const source = readFileSync(path, 'utf8');
  const prefix = '"data:application/octet-stream;base64,';
  const start = source.indexOf(prefix, source.indexOf('function findWasmBinary'));
  const stack = /__emscripten_stack_alloc = wasmExports\["(\w+)"\]/.exec(source);
  if (start < 0 || !stack) throw new Error('jq-wasm: unexpected build layout; this loader fits jq-wasm 1.0.1');
  const bytes = Buffer.from(source.slice(start + prefix.length, source.indexOf('"', start + prefix.length)), 'base64');
  return { factory: require(path) as Factory, module: new WebAssembly.Module(bytes), stackAllocExport: stack[1] };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
