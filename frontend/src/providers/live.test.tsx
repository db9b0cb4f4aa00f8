import { act, cleanup, render } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";

// A stand-in socket: the provider opens it, the hook subscribes on it.
const handlers = new Map<string, Set<(payload: unknown) => void>>();
const socket = {
  on: vi.fn((name: string, fn: (payload: unknown) => void) => void (handlers.get(name) ?? handlers.set(name, new Set()).get(name)!).add(fn)),
  off: vi.fn((name: string, fn: (payload: unknown) => void) => void handlers.get(name)?.delete(fn)),
  disconnect: vi.fn(),
};
vi.mock("socket.io-client", () => ({ io: () => socket }));

const { LiveProvider, useLiveEvent } = await import("./live");
const emit = (name: string, payload: unknown) => act(() => handlers.get(name)?.forEach((fn) => fn(payload)));

function ImageListener({ onImage }: { onImage: (id: string) => void }) {
  // The payload is typed by the server's LiveEvents map: `data._id` exists on "image".
  useLiveEvent("image", (e) => onImage(e.data._id));
  return null;
}

describe("useLiveEvent", () => {
  afterEach(() => {
    cleanup();
    handlers.clear();
  });

  it("listens to {topic}-{userId} while mounted, and only to the signed-in user's events", () => {
    const onImage = vi.fn();
    const view = render(
      <LiveProvider userId="u1">
        <ImageListener onImage={onImage} />
      </LiveProvider>,
    );
    emit("image-u1", { status: "ready", data: { _id: "img1", status: "ready" } });
    emit("image-u2", { status: "ready", data: { _id: "other", status: "ready" } });
    emit("print-u1", { printId: "p1", status: "Completed" });
    expect(onImage.mock.calls).toEqual([["img1"]]);

    view.unmount();
    expect(socket.off).toHaveBeenCalledWith("image-u1", expect.any(Function));
    expect(socket.disconnect).toHaveBeenCalled();
    emit("image-u1", { status: "ready", data: { _id: "img2", status: "ready" } });
    expect(onImage).toHaveBeenCalledTimes(1);
  });

  it("opens no socket before the user is known", () => {
    socket.on.mockClear();
    render(
      <LiveProvider userId={null}>
        <ImageListener onImage={() => undefined} />
      </LiveProvider>,
    );
    expect(socket.on).not.toHaveBeenCalled();
  });
});
