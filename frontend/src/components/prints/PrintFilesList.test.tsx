import { cleanup, render, screen, within } from "@testing-library/react";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PrintFilesList } from "./PrintFilesList";
import { fileLabel, fileOfPath, groupByFormat, listedFiles } from "./printFiles";
import type { PrintFile } from "../../api/types";

const id = "abcdef12-0000-4000-8000-000000000000";
const apiFile = (format: "png" | "pdf", sheet: number, bytes: number): PrintFile => ({
  format,
  sheet,
  path: `/api/print/${id}/files/${sheet}${format === "pdf" ? "/pdf" : ""}`,
  previewPath: `/api/print/${id}/files/${sheet}/preview`,
  widthPx: 6600,
  heightPx: 30000,
  lengthIn: 100,
  bytes,
});

describe("print files by format", () => {
  // antd's List asks for media queries, which jsdom lacks.
  beforeEach(() => {
    vi.stubGlobal("matchMedia", (query: string) => ({
      matches: false, media: query, onchange: null, addListener() {}, removeListener() {}, addEventListener() {}, removeEventListener() {}, dispatchEvent: () => false,
    }));
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it("reads format and sheet back from a file path (the success modal only has paths)", () => {
    expect(fileOfPath(`/api/print/${id}/files/2`)).toEqual({ format: "png", sheet: 2, path: `/api/print/${id}/files/2` });
    expect(fileOfPath(`/api/print/${id}/files/3/pdf`)).toEqual({ format: "pdf", sheet: 3, path: `/api/print/${id}/files/3/pdf` });
    expect(fileOfPath("users/u/prints/p/1/sheet-1.pdf").format).toBe("pdf");
    expect(fileOfPath("users/u/prints/p/1/sheet-1.png").format).toBe("png");
  });

  it("groups PNG before PDF whatever the order given, and names sheets per format", () => {
    const files = [fileOfPath(`/api/print/${id}/files/1/pdf`), fileOfPath(`/api/print/${id}/files/1`), fileOfPath(`/api/print/${id}/files/2/pdf`)];
    const groups = groupByFormat(files);
    expect(groups.map((g) => [g.format, g.files.map((f) => f.sheet)])).toEqual([["png", [1]], ["pdf", [1, 2]]]);
    expect(fileLabel(groups[0].files[0], 0, 1)).toBe("Gang sheet (PNG)");
    expect(fileLabel(groups[1].files[1], 1, 2)).toBe("Sheet 2 of 2 (PDF)");
  });

  it("lists a print's PNG and PDF files under their format, each downloadable", () => {
    const files = [apiFile("png", 1, 3_600_000), apiFile("png", 2, 1_200_000), apiFile("pdf", 1, 410_000), apiFile("pdf", 2, 390_000)];
    render(<PrintFilesList files={listedFiles(files)} shareable={false} />);
    const png = within(screen.getByTestId("files-png"));
    const pdf = within(screen.getByTestId("files-pdf"));
    expect(png.getByText("PNG files")).toBeTruthy();
    expect(pdf.getByText("PDF files")).toBeTruthy();
    expect(png.getAllByRole("link", { name: /^(Sheet|Gang)/ }).map((a) => a.textContent)).toEqual(["Sheet 1 of 2 (PNG)", "Sheet 2 of 2 (PNG)"]);
    const pdfLinks = pdf.getAllByRole("link", { name: /^(Sheet|Gang)/ });
    expect(pdfLinks.map((a) => [a.textContent, a.getAttribute("href")])).toEqual([
      ["Sheet 1 of 2 (PDF)", `/api/print/${id}/files/1/pdf`],
      ["Sheet 2 of 2 (PDF)", `/api/print/${id}/files/2/pdf`],
    ]);
    expect(pdf.getByText("400 KB")).toBeTruthy();
    expect(png.getByText("3.4 MB")).toBeTruthy();
    const downloads = screen.getAllByRole("link", { name: /^Download/ });
    expect(downloads.map((a) => a.getAttribute("href"))).toEqual(files.map((f) => f.path));
    expect(downloads.every((a) => a.hasAttribute("download"))).toBe(true);
    expect(screen.queryByRole("button", { name: /copy link/i })).toBeNull();
  });

  it("a PDF-only print shows no PNG list; no files at all says so", () => {
    render(<PrintFilesList files={listedFiles([apiFile("pdf", 1, 10)])} />);
    expect(screen.queryByTestId("files-png")).toBeNull();
    expect(within(screen.getByTestId("files-pdf")).getByRole("link", { name: "Gang sheet (PDF)" })).toBeTruthy();
    cleanup();
    render(<PrintFilesList files={[]} />);
    expect(screen.getByText("No files")).toBeTruthy();
  });
});
