export * from "./common";
export * from "./issues";
export * from "./workloads";
export * from "./templates";
export * from "./events";
