/** The service's custom components from its configuration (the server and a local `flowsvc run` alike). */
import { CustomComponents } from '../components/custom/custom-components.js';
import type { Config } from '../config.js';

type CustomConfig = Pick<Config, 'CUSTOM_COMPONENTS' | 'CUSTOM_COMPONENT_CPU_MS' | 'CUSTOM_COMPONENT_MEMORY_MB' | 'CUSTOM_COMPONENT_FETCH_HOSTS' | 'CUSTOM_COMPONENT_READ_FILES'>;

/** Ready to describe and run sources when custom components are allowed; otherwise only to check them statically. */
export async function setUpCustomComponents(config: CustomConfig): Promise<CustomComponents> {
  const customs = new CustomComponents(
    { cpuMs: config.CUSTOM_COMPONENT_CPU_MS, memoryMb: config.CUSTOM_COMPONENT_MEMORY_MB },
    { fetchHosts: config.CUSTOM_COMPONENT_FETCH_HOSTS, readFiles: config.CUSTOM_COMPONENT_READ_FILES },
  );
  // The engine compiles once (tens of ms); a service that runs no custom code never loads it.
  if (config.CUSTOM_COMPONENTS) await customs.start();
  return customs;
}
