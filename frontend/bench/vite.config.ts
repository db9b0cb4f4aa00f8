// `npm run bench:editor`: builds bench/editor.html (the editor's canvas alone, with a
// synthetic 400-copy true-shape print) for bench/editor-bench.mjs.
import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";
import { fileURLToPath } from "node:url";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  plugins: [react()],
  build: { outDir: process.env.BENCH_DIST ?? "/tmp/gangsheet-bench-editor", emptyOutDir: true, rollupOptions: { input: fileURLToPath(new URL("./editor.html", import.meta.url)) } },
});
