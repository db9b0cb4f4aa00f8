import { cleanup, render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { printColumns } from "./printColumns";
import type { Print } from "../../api/types";

const print = {
  _id: "abcdef12-0000-4000-8000-000000000000",
  status: "In Draft",
  type: "Manual",
  printItems: [],
  fileId: [],
  printedAt: null,
} as unknown as Print;

const renderRows = (columns: ReturnType<typeof printColumns>, row: Print = print) =>
  render(
    <MemoryRouter>
      {columns.map((c) => <div key={c.key}>{c.render ? (c.render(undefined, row, 0) as React.ReactNode) : null}</div>)}
    </MemoryRouter>,
  );

describe("printColumns", () => {
  afterEach(cleanup);
  it("has the list's eight columns when process and delete are handled", () => {
    const cols = printColumns({ onProcess: () => {}, onDelete: () => {} });
    expect(cols.map((c) => c.title)).toEqual(["File", "Print ID", "Type", "Status", "Print date", "View", "Process", "Delete"]);
  });

  it("links rows to /prints/{id} by default", () => {
    renderRows(printColumns());
    const links = screen.getAllByRole("link").map((a) => a.getAttribute("href"));
    expect(links).toEqual([`/prints/${print._id}`, `/prints/${print._id}`]); // Print ID and View
    expect(screen.queryByRole("button", { name: /process/i })).toBeNull();
  });

  it("tags a test print beside its status, and only a test print", () => {
    renderRows(printColumns());
    expect(screen.queryByTestId("print-test")).toBeNull();
    cleanup();
    renderRows(printColumns(), { ...print, test: true } as Print);
    expect(screen.getByTestId("print-test").textContent).toBe("Test");
  });

  it("leaves out the links for rows the user may not open", () => {
    renderRows(printColumns({ canOpen: () => false }));
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByText("ABCDEF12")).toBeTruthy();
  });
});
