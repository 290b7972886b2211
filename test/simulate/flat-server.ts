/** A measured checkpoint server for the simulators' value tests: bw(m, V) = 2 MB/s whatever the load, so that every transfer's time is its size / 2 s by hand. */
import { PAPER_MODEL, type BandwidthModel } from "../../pipeline/fit/model";
import type { MeasuredServer } from "../../pipeline/simulate/server/measured-server";

const FLAT_MODEL: BandwidthModel = {
  ...PAPER_MODEL,
  name: "flat 2 MB/s",
  form: "full",
  coefficients: { a00: 2, a01: 0, a02: 0, a10: 0, a11: 0, a12: 0, a20: 0, a21: 0, a22: 0 },
  domain: { mMin: 1, mMax: 100, vGbMin: 0, vGbMax: 1000 },
  provenance: {},
};

export const FLAT_SERVER: MeasuredServer = { model: FLAT_MODEL, file: "flat", sha256: "0".repeat(64), outsideDomain: "clamp", volume: "whole" };
