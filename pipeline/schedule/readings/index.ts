/** Other readings of ScheduleCkpt and of the waves, as options (see each module's docblock). */
export * from "./schedule-readings";
export * from "./waves-readings";
export * from "./k0-work-growth";
