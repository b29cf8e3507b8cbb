/**
 * Current Date: the date and time in a time zone, worded as Langflow words it:
 * "Current date and time in <zone>: YYYY-MM-DD HH:MM:SS <abbreviation>".
 */
import { createMessage } from '../../values/message.js';
import { ComponentError } from '../component.error.js';
import { defineComponent } from '../contract.js';
import { str } from '../fields.js';

/** Every IANA zone this runtime knows, UTC first (the dropdown's options, as Langflow lists zoneinfo's). */
const TIME_ZONES = ['UTC', ...Intl.supportedValuesOf('timeZone').filter((zone) => zone !== 'UTC')];

export const currentDate = defineComponent({
  type: 'CurrentDate',
  version: 1,
  displayName: 'Current Date',
  description: 'Returns the current date and time in the selected timezone.',
  category: 'helpers',
  icon: 'clock',
  fields: {
    timezone: str({ displayName: 'Timezone', info: 'Select the timezone for the current date and time.', options: TIME_ZONES, value: 'UTC', toolMode: true }),
  },
  outputs: [{ name: 'current_date', displayName: 'Current Date', types: ['Message'], method: 'get_current_date' }],
  async run(inputs) {
    const zone = inputs.timezone || 'UTC';
    return { current_date: createMessage({ text: `Current date and time in ${zone}: ${formatInZone(new Date(), zone)}` }) };
  },
});

/** strftime("%Y-%m-%d %H:%M:%S %Z") in `zone`; an unknown zone is an error naming it. */
export function formatInZone(date: Date, zone: string): string {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      timeZoneName: 'short',
    });
  } catch {
    throw new ComponentError(`Field "Timezone" (timezone): unknown time zone "${zone}"; use an IANA name such as "UTC" or "Europe/Paris"`);
  }
  const part = Object.fromEntries(format.formatToParts(date).map((p) => [p.type, p.value]));
  return `${part.year}-${part.month}-${part.day} ${part.hour}:${part.minute}:${part.second} ${part.timeZoneName}`;
}
