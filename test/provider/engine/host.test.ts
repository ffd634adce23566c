import { HOST_HOOKS, missingHooksWarning, type HostHook } from "../../../provider/dynamic/engine/host";

const ALL: Record<HostHook, boolean> = { statusRows: true, cancel: true, deleteUrns: true, replaceFlags: true };
const versions = { pulumi: "3.259.0", node: "22.23.3" };

describe("missingHooksWarning", () => {
  it("should say nothing while every hook is in place", () => {
    expect(missingHooksWarning(ALL, versions)).toBeUndefined();
  });

  it.each(Object.keys(HOST_HOOKS) as HostHook[])(
    "should name the versions and what a user loses without %s, and nothing of the others",
    (hook) => {
      const text = missingHooksWarning({ ...ALL, [hook]: false }, versions)!;
      expect(text).toContain("(@pulumi/pulumi 3.259.0, Node 22.23.3)");
      expect(text).toContain(HOST_HOOKS[hook].loses);
      expect(text).toContain("The deployment itself is not affected");
      for (const other of Object.keys(HOST_HOOKS) as HostHook[])
        if (other !== hook) expect(text).not.toContain(HOST_HOOKS[other].loses);
    },
  );
});
