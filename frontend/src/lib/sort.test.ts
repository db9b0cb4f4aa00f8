import { describe, expect, it } from "vitest";
import { nextSort } from "./sort";
import { applySort } from "./urlList";

describe("nextSort", () => {
  it("cycles asc → desc → none on the same column", () => {
    const a = nextSort({}, "email");
    expect(a).toEqual({ sortBy: "email", sort: "asc" });
    const b = nextSort(a, "email");
    expect(b).toEqual({ sortBy: "email", sort: "desc" });
    expect(nextSort(b, "email")).toEqual({});
  });
  it("starts another column at ascending", () => {
    expect(nextSort({ sortBy: "email", sort: "desc" }, "role")).toEqual({ sortBy: "role", sort: "asc" });
  });
});

describe("applySort", () => {
  it("removes both sort and sortBy from the URL for none, keeping other parameters", () => {
    const p = applySort(new URLSearchParams("sortBy=email&sort=desc&page=2&search=ann"), {});
    expect(p.toString()).toBe("page=2&search=ann");
  });
  it("writes both parameters", () => {
    expect(applySort(new URLSearchParams(), { sortBy: "role", sort: "asc" }).toString()).toBe("sortBy=role&sort=asc");
  });
});
