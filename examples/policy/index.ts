import { PolicyPack } from "@pulumi/policy";
import { policies } from "./policies";

// Serves the pack to the engine: `pulumi preview --policy-pack <this directory>`.
new PolicyPack("wws-guardrails", { policies });
