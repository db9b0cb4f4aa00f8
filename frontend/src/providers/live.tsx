import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from "react";
import { io, type Socket } from "socket.io-client";

/** Per-user realtime events (spec §4 Realtime). */
export type LiveTopic = "print" | "size" | "print-update" | "payment" | "notification";
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
 * component is mounted. The latest handler is always used, so inline functions are fine.
 */
export function useLiveEvent<T = unknown>(topic: LiveTopic, handler: (payload: T) => void) {
  const { socket, userId } = useContext(LiveContext);
  const ref = useRef(handler);
  ref.current = handler;
  useEffect(() => {
    if (!socket || !userId) return;
    const name = liveEventName(topic, userId);
    const listener = (payload: T) => ref.current(payload);
    socket.on(name, listener);
    return () => {
      socket.off(name, listener);
    };
  }, [socket, userId, topic]);
}
