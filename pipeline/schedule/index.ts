/** The schedule stage's public functions and types. */
export {};
