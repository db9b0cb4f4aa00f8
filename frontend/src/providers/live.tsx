import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { io, type Socket } from "socket.io-client";
// The server's map of socket topics and payloads, shared as types only.
import type { LiveEvents, LiveTopic } from "@shared/events";

export type { LiveEvents, LiveTopic };

/** The event name on the wire: the server sends `{topic}-{userId}` to that user's room. */
export const liveEventName = (topic: LiveTopic, userId: string) => `${topic}-${userId}`;

const LiveContext = createContext<{ socket: Socket | null; userId: string | null }>({ socket: null, userId: null });

/**
 * One socket per signed-in session, opened once the user's id is known and closed on
 * sign-out. The server authenticates it with the session cookie.
 */
export function LiveProvider({ userId, children }: { userId: string | null | undefined; children: ReactNode }) {
  const [socket, setSocket] = useState<Socket | null>(null);
  useEffect(() => {
    if (!userId) return;
    const s = io({ path: "/socket.io", withCredentials: true, transports: ["websocket", "polling"] });
    setSocket(s);
    return () => {
      s.disconnect();
      setSocket(null);
    };
  }, [userId]);
  return <LiveContext.Provider value={{ socket, userId: userId ?? null }}>{children}</LiveContext.Provider>;
}

/**
 * `useLiveEvent("print", (payload) => ...)` subscribes to `print-{userId}` while the
 * component is mounted; the payload's type is the server's (`LiveEvents["print"]`). The
 * latest handler is always used, so inline functions are fine.
 */
export function useLiveEvent<T extends LiveTopic>(topic: T, handler: (payload: LiveEvents[T]) => void) {
  const { socket, userId } = useContext(LiveContext);
  const ref = useRef(handler);
  useEffect(() => {
    ref.current = handler;
  });
  useEffect(() => {
    if (!socket || !userId) return;
    const name = liveEventName(topic, userId);
    const listener = (payload: LiveEvents[T]) => ref.current(payload);
    socket.on(name, listener as (...args: unknown[]) => void);
    return () => {
      socket.off(name, listener as (...args: unknown[]) => void);
    };
  }, [socket, userId, topic]);
}
