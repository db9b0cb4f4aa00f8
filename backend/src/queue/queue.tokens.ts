/** The injection token of the JobRunner (its own file so providers can import it without a cycle). */
export const JOB_RUNNER = Symbol('JOB_RUNNER');
