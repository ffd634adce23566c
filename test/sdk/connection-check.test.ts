import { InvalidOptionError, WorkspaceClient } from "../../sdk";
import { DNS_LABEL_RULE } from "../../sdk/schemas";
import { connectionSettingProblem, type ConnectionSetting } from "../../sdk/connection-check";
import { connectionProblem } from "../../provider/dynamic/service/connection";

const VALID = { baseUrl: "http://127.0.0.1:8787/api", workspace: "demo", apiKey: "k-1234" };

describe("connectionSettingProblem", () => {
  it.each<[ConnectionSetting, unknown, string | undefined]>([
    ["baseUrl", VALID.baseUrl, undefined],
    ["baseUrl", 8787, "must be a string such as http://127.0.0.1:8787"],
    ["baseUrl", "localhost:8787", "must use http or https"],
    ["baseUrl", "not a url", "must be an absolute URL such as http://127.0.0.1:8787"],
    ["baseUrl", "ftp://h", "must use http or https"],
    ["baseUrl", "http://user:pw@h", "must not contain credentials; pass the API key as apiKey"],
    ["baseUrl", "http://h/?a=1", "must not have a query or fragment"],
    ["workspace", "demo", undefined],
    ["workspace", "Demo_1", DNS_LABEL_RULE],
    ["apiKey", "k-1234", undefined],
    ["apiKey", "has space", "must be a non-empty string of printable ASCII characters without spaces"],
    ["apiKey", "", "must be a non-empty string of printable ASCII characters without spaces"],
  ])("should judge %s %j", (setting, value, problem) => {
    expect(connectionSettingProblem(setting, value)).toEqual(problem);
  });

  it("should be the check WorkspaceClient throws, naming the option", () => {
    const make = () => new WorkspaceClient({ ...VALID, apiKey: "has space" });
    expect(make).toThrow(InvalidOptionError);
    expect(make).toThrow(`invalid option apiKey: ${connectionSettingProblem("apiKey", "has space")}`);
  });

  it("should be the check the provider reports, led by the setting's name", () => {
    expect(connectionProblem("baseUrl", "ftp://h")).toBe("baseUrl must use http or https");
    expect(connectionProblem("workspace", "demo")).toBeUndefined();
  });
});
