import { useEffect, useState, type ReactNode } from "react";
import { Spin } from "antd";
import { useLocation } from "react-router";

export const INITIAL_SPINNER_MS = 1000;

export function FullScreenSpinner() {
  return (
    <div className="gs-fullscreen-spinner" role="status" aria-label="Loading">
      <Spin size="large" />
    </div>
  );
}

/** The app shows a loading spinner for its first second. */
export function InitialSpinner({ children }: { children: ReactNode }) {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setReady(true), INITIAL_SPINNER_MS);
    return () => clearTimeout(t);
  }, []);
  return ready ? <>{children}</> : <FullScreenSpinner />;
}

/** Every route change starts at the top of the page; hash links are left to the browser. */
export function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}
