// Lint for the frontend, run by `npm test` before vitest. See docs/frontend.md "Lint".
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";

/** Layers, from the bottom: api and lib import no screen code; components import no pages. */
const noImportsFrom = (...layers) => ({
  "no-restricted-imports": [
    "error",
    {
      patterns: layers.map((layer) => ({
        group: [`**/${layer}/*`, `**/${layer}`],
        message: `This layer must not import from ${layer}/ (see docs/frontend.md "Layers").`,
      })),
    },
  ],
});

/**
 * The route table (src/routes.tsx) imports the pages; below App only its types may be
 * imported, since a value import would close a cycle (pages → components → routes → pages).
 */
const routesTypesOnly = {
  "@typescript-eslint/no-restricted-imports": [
    "error",
    {
      patterns: [
        {
          group: ["**/routes", "**/routes.tsx"],
          allowTypeImports: true,
          message: 'Only App.tsx imports values from the route table; import its types only (see docs/frontend.md "Layers").',
        },
      ],
    },
  ],
};

export default tseslint.config(
  { ignores: ["dist/", "e2e/artifacts/", "src/api/schema.d.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      "react-hooks/exhaustive-deps": "error",
      // Off, with reasons (docs/frontend.md "Lint"): the React Compiler's rules flag the
      // deliberate "sync state from an outside source in an effect" pattern (socket,
      // saved settings, search box) and see a ref inside the captcha hook's result as
      // read during render. We do not run the compiler.
      "react-hooks/set-state-in-effect": "off",
      "react-hooks/refs": "off",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", ignoreRestSiblings: true }],
      "@typescript-eslint/consistent-type-imports": ["error", { fixStyle: "inline-type-imports" }],
      // Calls to our API go through the typed client (src/api/client.ts).
      "no-restricted-globals": ["error", { name: "fetch", message: "Call the API through `api` + `call()` from src/api/client.ts." }],
      "no-restricted-syntax": [
        "error",
        { selector: "MemberExpression[object.name='window'][property.name='fetch']", message: "Call the API through `api` + `call()` from src/api/client.ts." },
      ],
    },
  },
  { files: ["src/api/**", "src/lib/**"], rules: noImportsFrom("components", "pages", "providers") },
  { files: ["src/components/**"], rules: noImportsFrom("pages") },
  {
    files: ["src/api/**", "src/lib/**", "src/hooks/**", "src/providers/**", "src/components/**", "src/pages/**"],
    rules: routesTypesOnly,
  },
  {
    // Tests may stub fetch and take shortcuts with types.
    files: ["**/*.test.{ts,tsx}", "src/test-setup.ts"],
    rules: { "no-restricted-globals": "off", "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    files: ["e2e/**/*.mjs", "*.config.{js,ts}"],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
);
