/** The place stage's public functions and types. */
export {};
