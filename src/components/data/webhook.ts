/**
 * Webhook: the body a webhook call delivered (`data`), as Data. A JSON object is the Data itself; any other body
 * (invalid JSON, a list, a plain value) is kept whole under `payload`; no body gives an empty Data.
 */
import { createData } from '../../values/data.js';
import { defineComponent } from '../contract.js';
import { text } from '../fields.js';

export const webhook = defineComponent({
  type: 'Webhook',
  version: 1,
  displayName: 'Webhook',
  description: 'Defines a webhook trigger for the flow: the body of a call to the flow\'s webhook endpoint.',
  category: 'data',
  icon: 'webhook',
  fields: {
    data: text({ displayName: 'Payload', info: 'Receives a payload from external systems via HTTP POST.', multiline: true, advanced: true }),
    curl: text({ displayName: 'cURL', value: 'CURL_WEBHOOK', multiline: true, advanced: true, inputTypes: [] }),
    endpoint: text({ displayName: 'Endpoint', value: 'BACKEND_URL', multiline: true, inputTypes: [] }),
  },
  outputs: [{ name: 'output_data', displayName: 'Data', types: ['Data'], method: 'build_data' }],
  async run(inputs) {
    const body = inputs.data;
    if (body.trim() === '') return { output_data: createData({}) };
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return { output_data: createData({ payload: body }) };
    }
    const isObject = typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
    return { output_data: createData(isObject ? (parsed as Record<string, unknown>) : { payload: parsed }) };
  },
});
