import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", ".tools/**", "**/*.js", "**/*.mjs"] },
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_" }],
    },
  },
  {
    // The program's side reaches the provider process's code through one small interface.
    files: ["provider/*.ts", "provider/resources/**/*.ts", "provider/fields/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              regex: "^\\.{1,2}/(\\.\\./)*dynamic/(?!program-side$)",
              message: "The program's side imports the provider process's code through dynamic/program-side.ts only.",
            },
          ],
        },
      ],
    },
  },
);
