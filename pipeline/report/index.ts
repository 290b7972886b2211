/** The report stage's public functions and types. */
export {};
