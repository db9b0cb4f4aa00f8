// @vitest-environment node
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const frontendDir = fileURLToPath(new URL("../..", import.meta.url));

/** docs/openapi.json is checked against the server by the backend's OpenAPI test; this checks the types against it. */
it("src/api/schema.d.ts matches docs/openapi.json (run `npm run openapi` to regenerate)", () => {
  // The `api-types` script's generator and input, printed to stdout instead of written.
  const pkg = createRequire(import.meta.url).resolve("openapi-typescript/package.json");
  const cli = join(dirname(pkg), "bin/cli.js");
  const generated = execFileSync(process.execPath, [cli, "../docs/openapi.json"], { cwd: frontendDir, encoding: "utf8" });
  expect(generated).toBe(readFileSync(new URL("./schema.d.ts", import.meta.url), "utf8"));
});
