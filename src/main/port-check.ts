/**
 * The listen address tried before the first start's set-up (the store, the superuser and its generated password):
 * a port in use must fail the start before anything is created, or the password printed once would be printed to
 * a start that then stops. The real listen comes moments later and can still fail if another process takes the port
 * meanwhile; it is then told the same way (listenError).
 */
import { createServer } from 'node:net';
import { EnvironmentError } from './environment-error.js';

export async function checkListenAddress(host: string, port: number): Promise<void> {
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (error) => reject(listenError(host, port, error)));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/** A failed listen as one line naming the setting to change. */
export function listenError(host: string, port: number, error: unknown): EnvironmentError {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EADDRINUSE':
      return new EnvironmentError(`FLOWSVC_PORT=${port} is in use by another process on ${host}; set FLOWSVC_PORT or stop it`);
    case 'EACCES':
      return new EnvironmentError(`FLOWSVC_PORT=${port} needs privileges this user lacks (ports below 1024); set FLOWSVC_PORT to 1024 or above`);
    case 'EADDRNOTAVAIL':
      return new EnvironmentError(`FLOWSVC_HOST=${host} is not an address of this machine; set FLOWSVC_HOST (127.0.0.1, or 0.0.0.0 for every interface)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new EnvironmentError(`FLOWSVC_HOST=${host} does not resolve to an address; set FLOWSVC_HOST to an address or a known name`);
    default:
      return new EnvironmentError(`cannot listen on FLOWSVC_HOST=${host} FLOWSVC_PORT=${port}: ${(error as Error).message}`);
  }
}
