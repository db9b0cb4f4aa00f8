/** The event a CPU worker emits when it starts a task: { [PID_EVENT]: process.pid }. */
export const PID_EVENT = 'cpuWorkerPid';
