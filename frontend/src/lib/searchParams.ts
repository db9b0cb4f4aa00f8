import { useCallback } from "react";
import { createSearchParams, useLocation, useSearchParams as useRouterSearchParams, type NavigateOptions, type URLSearchParamsInit } from "react-router";

type Next = URLSearchParamsInit | ((prev: URLSearchParams) => URLSearchParamsInit);

// react-router's functional update starts from the params of the render that made the
// setter. A callback created earlier (a request's onSuccess) or a second update before the
// router re-renders (right after a socket event's) would start from stale params and undo
// the other update. So the query string is tracked here: `latest` is what the URL is or is
// about to be, `pending` the strings written and not yet rendered, in order.
let latest = "";
let pending: string[] = [];
let seenKey: string | null = null;

function observe(key: string, rendered: string) {
  if (key === seenKey) return;
  seenKey = key;
  const at = pending.indexOf(rendered);
  if (at === -1) {
    // A navigation from elsewhere (a link, the back button): it is the truth.
    pending = [];
    latest = rendered;
  } else {
    pending = pending.slice(at + 1);
    latest = pending.length ? pending[pending.length - 1] : rendered;
  }
}

/**
 * react-router's `useSearchParams` whose functional updates queue like React's `setState`:
 * each sees the result of every earlier one, whichever component or closure makes it.
 */
export function useSearchParams(): [URLSearchParams, (next: Next, options?: NavigateOptions) => void] {
  const [params, setParams] = useRouterSearchParams();
  const { key } = useLocation();
  observe(key, params.toString());
  const update = useCallback(
    (next: Next, options?: NavigateOptions) => {
      const result = createSearchParams(typeof next === "function" ? next(new URLSearchParams(latest)) : next);
      latest = result.toString();
      pending.push(latest);
      setParams(result, options);
    },
    [setParams],
  );
  return [params, update];
}
