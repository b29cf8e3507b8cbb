/** What one custom component run may use; the service reads them from FLOWSVC_CUSTOM_COMPONENT_* (src/config.ts). */
export interface SandboxLimits {
  /** Milliseconds of JavaScript execution per run, summed over the run's turns (time spent awaiting the host is free). */
  cpuMs: number;
  /** Megabytes of heap the sandbox may grow by; its WebAssembly memory cannot grow past its baseline plus this. */
  memoryMb: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { cpuMs: 500, memoryMb: 64 };

/** A run broke one of its limits: the component error names the node and the limit. */
export class SandboxLimitError extends Error {
  override name = 'SandboxLimitError';
  constructor(
    readonly limit: 'cpu' | 'memory',
    readonly amount: string,
  ) {
    super(limit === 'cpu' ? `exceeded its CPU time limit of ${amount}` : `exceeded its memory limit of ${amount}`);
  }
}

export const describeLimit = (limits: SandboxLimits, limit: 'cpu' | 'memory') => (limit === 'cpu' ? `${limits.cpuMs} ms` : `${limits.memoryMb} MB`);
