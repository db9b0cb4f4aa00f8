// The fake WooCommerce store (backend/test/fakes) for browser specs, and a synced shop on it.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { resolve } from "node:path";
import { waitFor } from "./fixtures.mjs";

const BACKEND = resolve(new URL("../../backend", import.meta.url).pathname);

/** Starts the fake store in a child process; resolves with its URL, keys and `stop()`. */
export function startFakeWoo() {
  const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "test/fakes/woocommerce.serve.ts"], { cwd: BACKEND, stdio: ["ignore", "pipe", "inherit"] });
  return new Promise((res, rej) => {
    child.once("exit", (code) => rej(new Error(`fake WooCommerce exited with ${code}`)));
    createInterface({ input: child.stdout }).once("line", (line) => res({ ...JSON.parse(line), stop: () => child.kill("SIGTERM") }));
  });
}

/** Connects the signed-in user's WooCommerce shop to the fake store and syncs its orders; returns the integration id. */
export async function syncedShop(api, woo, name = "Woo shop") {
  const created = await api("POST", "/integrations", {
    name,
    type: "WordPress",
    keys: [{ key: "baseUrl", value: woo.baseUrl }, { key: "consumerKey", value: woo.consumerKey }, { key: "consumerSecret", value: woo.consumerSecret }],
  });
  if (created.status !== 201) throw new Error(`integration ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.data._id;
  await api("GET", `/integrations/${id}/orders`);
  await waitFor(async () => (await api("GET", `/integrations/${id}`)).body.data.syncStatus === "done", { what: "the order sync" });
  return id;
}
