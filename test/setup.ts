/**
 * Every property test runs from one fixed seed so that a rerun is identical; set FC_SEED to
 * explore other seeds (a failure prints the seed and path that reproduce it).
 */
import fc from "fast-check";

fc.configureGlobal({ seed: Number(process.env.FC_SEED ?? 20261122) });
