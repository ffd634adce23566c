/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: "node",
  roots: ["<rootDir>/test"],
  testMatch: ["**/*.test.ts"],
  // The examples import "pulumi-wws" as a user's program does; here that is this checkout's source.
  moduleNameMapper: { "^pulumi-wws$": "<rootDir>/index.ts", "^pulumi-wws/(.*)$": "<rootDir>/$1" },
  transform: { "^.+\\.ts$": ["@swc/jest", { jsc: { target: "es2022" } }] },
  // Integration and e2e tests start real processes; give them room, keep unit tests fast.
  testTimeout: 30_000,
};
