/**
 * GET /api/v1/config as Langflow answers it (ConfigResponse, research: platform API section 5). The editor reads
 * these at start-up; the values we do not configure are Langflow's own defaults (lfx Settings), so an editor
 * pointed at us behaves as with a stock Langflow.
 */
import type { Config } from '../config.js';
import type { ConfigResponse } from '../../protocol/meta.schema.js';

/** Langflow's longest serialised text (lfx Settings.max_text_length): display copies of a value are cut there. */
export const SERIALIZATION_MAX_TEXT_LENGTH = 6000;

/** `defaultFolderName`: the project every user starts with (ours is named as Langflow's). */
export function configResponse(config: Config, defaultFolderName: string): ConfigResponse {
  return {
    // Langflow's FeatureFlags model; every flag is off in a stock install.
    feature_flags: { mvp_components: false },
    serialization_max_items_length: 1000,
    serialization_max_text_length: SERIALIZATION_MAX_TEXT_LENGTH,
    // 0: the editor applies no timeout of its own to API calls.
    frontend_timeout: 0,
    auto_saving: true,
    auto_saving_interval: 1000,
    health_check_max_retries: 5,
    max_file_size_upload: config.MAX_FILE_SIZE_UPLOAD,
    webhook_polling_interval: 5000,
    public_flow_cleanup_interval: 3600,
    public_flow_expiration: 86400,
    // Our build events are streamed; polling would still work, but streaming is what we serve best.
    event_delivery: 'streaming',
    webhook_auth_enable: config.WEBHOOK_AUTH_ENABLE,
    // The voice WebSocket is served (src/api/voice/): the frontend may offer its voice mode.
    voice_mode_available: true,
    default_folder_name: defaultFolderName,
    hide_getting_started_progress: false,
  };
}
