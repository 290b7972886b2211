/** The desktop-grid simulators: the engine, random streams, availability traces, sweeps. */
export * from "./engine/event-queue";
export * from "./engine/simulation";
export * from "./engine/random-streams";
export * from "./traces/availability-trace";
export * from "./traces/read-availability-trace";
export * from "./sweep/sweep-spec";
export * from "./sweep/run-shard";
export * from "./sweep/merge-sweep";
export * from "./simulator";
export * from "./bkt/bkt-scenario";
export * from "./bkt/bkt-simulator";
export * from "./das06/machines";
export * from "./das06/classroom-trace";
export * from "./das06/das06-scenario";
export * from "./das06/das06-simulator";
