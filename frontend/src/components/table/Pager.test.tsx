import { cleanup, fireEvent, render, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Pager } from "./Pager";

describe("Pager", () => {
  afterEach(cleanup);

  it("clearing the page size falls back to clearTo", () => {
    const onLimit = vi.fn();
    const { container } = render(<Pager page={3} limit={50} total={500} onPage={() => {}} onLimit={onLimit} clearTo={25} />);
    const clear = container.querySelector(".ant-select-clear");
    expect(clear).not.toBeNull();
    fireEvent.mouseDown(clear!);
    expect(onLimit).toHaveBeenCalledWith(25);
  });

  it("is not clearable without clearTo", () => {
    const { container } = render(<Pager page={1} limit={10} total={5} onPage={() => {}} onLimit={() => {}} />);
    expect(container.querySelector(".ant-select-clear")).toBeNull();
  });

  it("shows at most 7 page numbers around the current page", () => {
    const { container } = render(<Pager page={10} limit={10} total={500} onPage={() => {}} onLimit={() => {}} />);
    const numbers = within(container).getAllByRole("button").map((b) => b.textContent).filter((t) => /^\d+$/.test(t ?? ""));
    expect(numbers).toEqual(["7", "8", "9", "10", "11", "12", "13"]);
  });
});
