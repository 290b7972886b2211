/** Proof by replay: a trace split by run and time, its replay half as measured devices, plans played against them. */
export * from "./measured-bandwidth";
export * from "./split-runs";
export * from "./replay-releases";
export * from "./replay-plans";
