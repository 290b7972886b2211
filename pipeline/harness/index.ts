/** The harness stage's public functions and types. */
export {};
