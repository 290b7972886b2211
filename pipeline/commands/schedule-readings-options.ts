/**
 * The readings options shared by `ckpt campaign` and `ckpt schedule` (pipeline/schedule/readings/):
 * only the choices that differ from the faithful reading are passed on, so that with the
 * defaults both commands run the optimised loop exactly as before.
 */
import type { ScheduleReadings, WaveReadings } from "../schedule/readings";

export interface ReadingsValues {
  candidates: ScheduleReadings["candidates"];
  completion: ScheduleReadings["completion"];
  "completion-scope": ScheduleReadings["completionScope"];
  ties: ScheduleReadings["ties"];
  "running-sizes": ScheduleReadings["runningSizes"];
  decisions?: ScheduleReadings["decisions"];
  "per-node"?: boolean;
  "wave-pacing": WaveReadings["pacing"];
  "wave-order": WaveReadings["order"];
  "wave-carry": WaveReadings["carry"];
}

export function readingsOf(values: ReadingsValues): { readings?: Partial<ScheduleReadings>; waveReadings?: Partial<WaveReadings> } {
  const readings: Partial<ScheduleReadings> = {
    ...(values.candidates !== "while" ? { candidates: values.candidates } : {}),
    ...(values.completion !== "scan" ? { completion: values.completion } : {}),
    ...(values["completion-scope"] !== "candidates" ? { completionScope: values["completion-scope"] } : {}),
    ...(values.ties !== "first" ? { ties: values.ties } : {}),
    ...(values["running-sizes"] !== "remaining" ? { runningSizes: values["running-sizes"] } : {}),
    ...(values.decisions !== undefined && values.decisions !== "every" ? { decisions: values.decisions } : {}),
    ...(values["per-node"] ? { perNode: true } : {}),
  };
  const waveReadings: Partial<WaveReadings> = {
    ...(values["wave-pacing"] !== "barrier" ? { pacing: values["wave-pacing"] } : {}),
    ...(values["wave-order"] !== "input" ? { order: values["wave-order"] } : {}),
    ...(values["wave-carry"] !== "drop" ? { carry: values["wave-carry"] } : {}),
  };
  return {
    ...(Object.keys(readings).length > 0 ? { readings } : {}),
    ...(Object.keys(waveReadings).length > 0 ? { waveReadings } : {}),
  };
}
