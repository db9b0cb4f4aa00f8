/** The pool's own tasks, for its plumbing checks: the worker's pid, and a busy loop that only a kill ends. */
export const poolTasks = {
  pid: async () => process.pid,
  spin: async (ms: number) => {
    const end = Date.now() + ms;
    while (Date.now() < end);
    return process.pid;
  },
};
