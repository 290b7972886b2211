/**
 * The numerical helpers the stages share: special functions (the incomplete beta and gamma
 * functions), the Student t and standard normal distributions, and the confidence intervals
 * of a mean (Student t over seeds, normal over Monte Carlo runs).
 */
export * from "./incomplete-beta";
export * from "./incomplete-gamma";
export * from "./mean-confidence-interval";
export * from "./mean-estimate";
export * from "./standard-normal";
export * from "./student-t";
