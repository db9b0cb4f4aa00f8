/**
 * A moment as a clock in a named time zone ("Sat 13:00"): batching rules are the seller's
 * shop hours, so their cut-offs read in the zone the rules are set in, not the browser's.
 * An unknown zone falls back to the browser's rather than hiding the time.
 */
export function weekdayTimeIn(iso: string, timeZone: string): string {
  const options: Intl.DateTimeFormatOptions = { weekday: "short", hour: "2-digit", minute: "2-digit", hourCycle: "h23" };
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat("en-US", { ...options, timeZone }).formatToParts(new Date(iso));
  } catch {
    parts = new Intl.DateTimeFormat("en-US", options).formatToParts(new Date(iso));
  }
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("weekday")} ${part("hour")}:${part("minute")}`;
}
