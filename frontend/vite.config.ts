/// <reference types="vitest/config" />
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

// The API and socket.io live on the Nest server; in dev we proxy them so the browser
// sees one origin, exactly as in production where Nest serves the built UI.
const api = process.env.API_URL ?? "http://localhost:3000";

export default defineConfig({
  plugins: [react()],
  // The socket events' map lives with the server and is shared as types (see docs/frontend.md).
  resolve: { alias: { "@shared/events": fileURLToPath(new URL("../backend/src/realtime/events.ts", import.meta.url)) } },
  server: {
    proxy: {
      "/api": { target: api, changeOrigin: false },
      "/socket.io": { target: api, ws: true, changeOrigin: false },
    },
  },
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 2500 },
  test: {
    environment: "jsdom",
    include: ["src/**/*.test.{ts,tsx}"],
    setupFiles: ["src/test-setup.ts"],
    css: false,
    // The first antd render in jsdom alone can take seconds on a busy machine.
    testTimeout: 20_000,
  },
});
