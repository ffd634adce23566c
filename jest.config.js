/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  // Integration and e2e tests start real processes; give them room, keep unit tests fast.
  testTimeout: 30_000,
};
