// The session cookie is httpOnly, so the UI cannot see it. Auth pages must not fetch the
// profile yet should bounce a signed-in user to the dashboard; this
// flag, set on login and cleared on logout or a 401, tells them whether asking the server
// is worth it at all. It never grants access: protected pages always ask the server.
const KEY = "gs.signedIn";

export const sessionHint = {
  get: () => {
    try {
      return localStorage.getItem(KEY) === "1";
    } catch {
      return false;
    }
  },
  set: () => {
    try {
      localStorage.setItem(KEY, "1");
    } catch {
      /* storage disabled: the hint is only an optimisation */
    }
  },
  clear: () => {
    try {
      localStorage.removeItem(KEY);
    } catch {
      /* see above */
    }
  },
};
