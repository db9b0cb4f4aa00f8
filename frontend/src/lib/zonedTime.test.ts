import { describe, expect, it } from "vitest";
import { weekdayTimeIn } from "./zonedTime";

describe("weekdayTimeIn", () => {
  it("reads the moment on the clock of the given zone, not the browser's", () => {
    // 12:00 UTC on a Saturday in November is 13:00 in Vienna and 07:00 in New York
    expect(weekdayTimeIn("2026-11-28T12:00:00.000Z", "Europe/Vienna")).toBe("Sat 13:00");
    expect(weekdayTimeIn("2026-11-28T12:00:00.000Z", "America/New_York")).toBe("Sat 07:00");
  });

  it("crosses midnight into the zone's own weekday", () => {
    expect(weekdayTimeIn("2026-11-28T23:30:00.000Z", "Asia/Tokyo")).toBe("Sun 08:30");
  });

  it("falls back to the browser's zone for a zone the browser does not know", () => {
    expect(weekdayTimeIn("2026-11-28T12:00:00.000Z", "Mars/Olympus")).toMatch(/^[A-Z][a-z]{2} \d{2}:\d{2}$/);
  });
});
