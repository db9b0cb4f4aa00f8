import { useCallback, useState } from "react";

/**
 * A value with undo and redo: `set` records a step, `replace` changes the present without
 * one (e.g. a server's answer that should not be undone separately), `reset` starts over.
 */
export function useEditHistory<T>(initial: T, limit = 200) {
  const [state, setState] = useState<{ past: T[]; present: T; future: T[] }>({ past: [], present: initial, future: [] });
  const set = useCallback(
    (next: T | ((v: T) => T)) =>
      setState((s) => {
        const value = typeof next === "function" ? (next as (v: T) => T)(s.present) : next;
        if (value === s.present) return s;
        return { past: [...s.past.slice(-(limit - 1)), s.present], present: value, future: [] };
      }),
    [limit],
  );
  const undo = useCallback(() => setState((s) => (s.past.length ? { past: s.past.slice(0, -1), present: s.past[s.past.length - 1], future: [s.present, ...s.future] } : s)), []);
  const redo = useCallback(() => setState((s) => (s.future.length ? { past: [...s.past, s.present], present: s.future[0], future: s.future.slice(1) } : s)), []);
  const reset = useCallback((value: T) => setState({ past: [], present: value, future: [] }), []);
  return { value: state.present, set, undo, redo, reset, canUndo: state.past.length > 0, canRedo: state.future.length > 0 };
}
