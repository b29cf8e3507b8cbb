/**
 * QuickJS (quickjs-ng, WebAssembly) instances, one per sandbox. Each gets a WebAssembly.Memory of its own whose
 * maximum is the memory limit: QuickJS's own allocation counter misses most array storage in this build, while a
 * memory that cannot grow makes every allocation past the limit fail inside the sandbox ("out of memory"). One
 * instance per sandbox also means a sandbox that breaks (an abort inside the engine) takes nothing else with it.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import ngVariant from '@jitl/quickjs-ng-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSSyncVariant, type QuickJSWASMModule } from 'quickjs-emscripten-core';

// The package's types describe its CommonJS face (the variant under `default`); imported as ESM, it is the variant.
const variant = ((ngVariant as { default?: QuickJSSyncVariant }).default ?? ngVariant) as QuickJSSyncVariant;

/** The build's fixed initial memory (16 MiB in 64 KiB pages); a smaller memory does not link. */
const BASELINE_PAGES = 256;
const PAGE_BYTES = 65_536;
/** What an engine's memory holds before anything runs in it. */
export const ENGINE_BASELINE_BYTES = BASELINE_PAGES * PAGE_BYTES;

let compiled: Promise<WebAssembly.Module> | undefined;

/** Compiles the engine once per process (a few tens of ms); every instance reuses it. */
function compiledEngine(): Promise<WebAssembly.Module> {
  compiled ??= (async () => {
    const path = createRequire(import.meta.url).resolve('@jitl/quickjs-ng-wasmfile-release-sync/wasm');
    return WebAssembly.compile(await readFile(path));
  })();
  return compiled;
}

export interface EngineInstance {
  module: QuickJSWASMModule;
  memory: WebAssembly.Memory;
  /** Bytes the memory may reach. */
  maxBytes: number;
}

/** A fresh engine whose heap may grow by `memoryMb` over its baseline. */
export async function newEngineInstance(memoryMb: number): Promise<EngineInstance> {
  const maximum = BASELINE_PAGES + Math.ceil((memoryMb * 1024 * 1024) / PAGE_BYTES);
  const memory = new WebAssembly.Memory({ initial: BASELINE_PAGES, maximum });
  const module = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmModule: await compiledEngine(), wasmMemory: memory }));
  return { module, memory, maxBytes: maximum * PAGE_BYTES };
}
