import { CONNECTION_SETTINGS, type ConnectionField, type ResolvedConnection } from "./connection";

/** Where a connection setting in use was found, in words, and how to give it another value there. */
interface SettingSource {
  /** `the stack config wws:apiKey` */
  where: string;
  /** `fix("the workspace's key")`: `Set the workspace's key: pulumi config set --secret wws:apiKey <key>` */
  fix(what: string): string;
}

/**
 * The source of `field` as `r` resolved it. An argument may be the resource's own or its
 * `Workspace`'s (the provider sees only the value), set from anything the program reads: its fix
 * is in the program. Never quotes the value.
 */
export function settingSource(field: ConnectionField, r: Pick<ResolvedConnection, "from">): SettingSource {
  const s = CONNECTION_SETTINGS[field];
  const placeholder = s.set.slice(s.set.lastIndexOf(" ") + 1);
  switch (r.from[field]) {
    case "config":
      return { where: `the stack config ${s.config}`, fix: (what) => `Set ${what}: ${s.set}` };
    case "env":
      return {
        where: `the environment variable ${s.env}`,
        fix: (what) => `Set ${what}: export ${s.env}=${placeholder}`,
      };
    default: {
      const secret = s.set.includes("--secret") ? "--secret " : "";
      return {
        where:
          field === "workspace"
            ? "the program (the resource's `workspace`, or its Workspace's `name`)"
            : `the \`${field}\` argument of the resource or of its Workspace`,
        fix: (what) =>
          `Set ${what} where the program takes that argument from (a stack config value it reads: \`pulumi config set ${secret}<its name> ${placeholder}\`)`,
      };
    }
  }
}
