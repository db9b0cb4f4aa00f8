// axe-core in the browser specs: inject, run, and fail on serious or critical violations.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { test } from "@playwright/test";

// Evaluated through the DevTools protocol: the app's Content-Security-Policy forbids an injected <script>.
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const BLOCKING = new Set(["serious", "critical"]);

/**
 * Spinners, skeletons and antd's enter animations would make axe read half-drawn colours, and
 * a pointer left on the control a test just clicked would have it read that control's hover
 * colours: the page is audited at rest, the pointer parked on the empty foot of the side menu.
 * At rest means no finite CSS animation or transition running for a few frames in a row (antd
 * starts some motions a frame after a class changes), waited for rather than slept on.
 */
async function quiet(page) {
  const viewport = page.viewportSize();
  if (viewport) await page.mouse.move(2, viewport.height - 2);
  await page.waitForFunction(() => !document.querySelector(".ant-spin-spinning, .ant-skeleton-active"), null, { timeout: 20_000 });
  await page.evaluate(() =>
    new Promise((resolve) => {
      const moving = () => document.getAnimations().some((a) => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Infinity);
      const deadline = performance.now() + 5000;
      let still = 0;
      const tick = () => {
        still = moving() ? 0 : still + 1;
        if (still >= 6 || performance.now() > deadline) resolve();
        else setTimeout(tick, 25);
      };
      tick();
    }),
  );
}

/**
 * Runs axe on the page as it is (WCAG 2.x A/AA plus best practice, and the check that a
 * control's accessible name contains its visible label) and returns every violation.
 */
export async function axeViolations(page) {
  await quiet(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ["violations"], rules: { "label-content-name-mismatch": { enabled: true } } });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(" ")), why: v.nodes.map((n) => n.failureSummary) }));
  });
}

/** Collects axe results page by page; `assertClean()` fails listing every serious or critical one. */
export function axeAudit(page, group) {
  const pages = [];
  return {
    /** Audits the page now open under `label`, and checks it has exactly one h1. */
    async check(label) {
      const violations = await axeViolations(page);
      const h1 = await page.locator("h1").count();
      pages.push({ page: label, h1, violations });
    },
    /** Fails listing the faults; every page's results go into the report as `axe-<group>.json`. */
    async assertClean() {
      await test.info().attach(`axe-${group}.json`, { body: JSON.stringify(pages, null, 2), contentType: "application/json" });
      const faults = [];
      for (const p of pages) {
        const blocking = p.violations.filter((v) => BLOCKING.has(v.impact));
        if (p.h1 !== 1) faults.push(`${p.page}: ${p.h1} h1 headings (want one)`);
        for (const v of blocking) faults.push(`${p.page}: [${v.impact}] ${v.id} (${v.targets.length}×) ${v.help}\n      ${v.targets.slice(0, 4).join("\n      ")}`);
      }
      if (faults.length) throw new Error(`accessibility faults:\n  ${faults.join("\n  ")}`);
    },
  };
}
