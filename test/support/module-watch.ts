/** Which modules this process loads from now on, among those whose URL contains one of `patterns`. */
import { register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

export interface ModuleWatch {
  readonly loaded: string[];
  /** Resolves once a module whose URL contains `pattern` was reported (messages arrive in load order). */
  reported(pattern: string): Promise<void>;
}

export function watchModules(patterns: string[]): ModuleWatch {
  const { port1, port2 } = new MessageChannel();
  const loaded: string[] = [];
  const waiters: { pattern: string; resolve: () => void }[] = [];
  port1.on('message', (url: string) => {
    loaded.push(url);
    for (const waiter of waiters.filter((w) => url.includes(w.pattern))) waiter.resolve();
  });
  port1.unref();
  register('./module-watch-hooks.mjs', import.meta.url, { data: { port: port2, patterns }, transferList: [port2] });
  return {
    loaded,
    reported: (pattern) => (loaded.some((url) => url.includes(pattern)) ? Promise.resolve() : new Promise((resolve) => waiters.push({ pattern, resolve }))),
  };
}
