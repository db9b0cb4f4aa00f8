import { describe, expect, it } from "vitest";
import { closeModalParams, openModalParams } from "./queryModal";
import { parseListState } from "./urlList";

describe("query-parameter modals", () => {
  it("opening sets the parameter and keeps the list state", () => {
    const p = openModalParams(new URLSearchParams("page=3"), "editUser", "u1");
    expect(p.toString()).toBe("page=3&editUser=u1");
    expect(openModalParams(new URLSearchParams(), "addUser").get("addUser")).toBe("true");
  });

  it("closing removes the parameter and returns no callback when there is none", () => {
    const { params, callback } = closeModalParams(new URLSearchParams("page=3&editUser=u1"), ["editUser"]);
    expect(params.toString()).toBe("page=3");
    expect(callback).toBeNull();
  });

  it("closing returns the callback and strips it", () => {
    const { params, callback } = closeModalParams(new URLSearchParams("addSize=true&callback=%2Fprints%2Fmanual-create%3FaddPrint%3Dtrue"), ["addSize"]);
    expect(params.toString()).toBe("");
    expect(callback).toBe("/prints/manual-create?addPrint=true");
  });

  it("ignores callbacks that leave the site", () => {
    expect(closeModalParams(new URLSearchParams("addSize=true&callback=https://evil.test"), ["addSize"]).callback).toBeNull();
    expect(closeModalParams(new URLSearchParams("addSize=true&callback=//evil.test"), ["addSize"]).callback).toBeNull();
  });

  it("removes companion parameters such as repeated filePath", () => {
    const { params } = closeModalParams(new URLSearchParams("printSuccessModal=true&filePath=a&filePath=b&status=Completed"), ["printSuccessModal", "filePath"]);
    expect(params.toString()).toBe("status=Completed");
  });

  it("modal parameters are never list filters", () => {
    const state = parseListState(new URLSearchParams("deleteUser=u1&callback=/x&status=Pending&editCredit=u2"), { filters: ["status"] });
    expect(state.filters).toEqual({ status: "Pending" });
  });
});
