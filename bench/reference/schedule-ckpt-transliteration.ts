/**
 * bench/reference/schedule-ckpt.c transliterated into TypeScript, line for line (static
 * estimator, criterion p, the paper form under the domain policy refuse): one function, no
 * objects, no counters, nothing but typed arrays — what V8 makes of the C reference's own
 * code. The benchmark runs it next to C and ours to separate what our structure costs from
 * what the language costs.
 */

export interface TransliterationModel {
  a: number;
  b: number;
  c: number;
  d: number;
  e: number;
  mMax: number;
  vGbMax: number;
}

export interface TransliterationWork {
  order: Int32Array;
  waiting: Int32Array;
  remaining: Float64Array;
  running: Int32Array;
  finish: Float64Array;
  runningSizes: Float64Array;
  selection: Float64Array;
  combination: Int32Array;
  inSubset: Uint8Array;
  chosen: Int32Array;
  selected: Int32Array;
  toStart: Int32Array;
}

export function transliterationWork(n: number): TransliterationWork {
  return {
    order: new Int32Array(n),
    waiting: new Int32Array(n),
    remaining: new Float64Array(n),
    running: new Int32Array(n),
    finish: new Float64Array(n),
    runningSizes: new Float64Array(n),
    selection: new Float64Array(n),
    combination: new Int32Array(n + 1),
    inSubset: new Uint8Array(n),
    chosen: new Int32Array(n),
    selected: new Int32Array(n),
    toStart: new Int32Array(n),
  };
}

function insertSize(sizes: Float64Array, count: number, size: number): void {
  let i = count;
  while (i > 0 && sizes[i - 1]! > size) {
    sizes[i] = sizes[i - 1]!;
    i--;
  }
  sizes[i] = size;
}

/** ScheduleCkpt as the C reference runs it; returns the CTNYS. */
export function scheduleCkptTransliteration(p: Float64Array, sizes: Float64Array, deadline: number, k0: number, model: TransliterationModel, w: TransliterationWork): number {
  const { a: A, b: B, c: C, d: D, e: E, mMax, vGbMax } = model;
  const bandwidth = (m: number, vGb: number): number => {
    if (m > mMax || vGb > vGbMax) return NaN;
    const m2 = m * m;
    const v2 = vGb * vGb;
    const bw = A * m2 * v2 + B * m2 + C * v2 + D * m + E;
    return bw > 0 ? bw : NaN;
  };
  const n = p.length;
  const { order, waiting, remaining, running, finish, runningSizes, selection, combination, inSubset, chosen, selected, toStart } = w;
  for (let i = 0; i < n; i++) order[i] = i;
  for (let i = 1; i < n; i++) {
    const app = order[i]!;
    let j = i - 1;
    while (j >= 0 && p[order[j]!]! < p[app]!) {
      order[j + 1] = order[j]!;
      j--;
    }
    order[j + 1] = app;
  }
  waiting.set(order);
  finish.fill(NaN);
  let head = 0;
  let runningCount = 0;
  let now = 0;
  for (;;) {
    let runningSetCount = 0;
    let runningSum = 0;
    for (let k = 0; k < runningCount; k++) {
      const left = remaining[running[k]!]!;
      insertSize(runningSizes, runningSetCount++, left);
      runningSum += left;
    }
    const budget = deadline - now;
    // index_bw_max
    let m = runningSetCount;
    let volume = runningSum;
    let current = m === 0 ? E : bandwidth(m, volume / 1000);
    if (!(current > 0)) current = -Infinity;
    let k = head;
    for (; k < n; k++) {
      const size = sizes[waiting[k]!]!;
      const next = bandwidth(m + 1, (volume + size) / 1000);
      if (!(next >= current)) break;
      m++;
      volume += size;
      current = next;
    }
    const r = k - head;
    // ks_bw
    let total = 0;
    for (let i = 0; i < r; i++) total += p[waiting[head + i]!]!;
    const largest = k0 < r ? k0 : r;
    let best = -Infinity;
    let selectedCount = 0;
    for (let size = 0; size <= largest; size++) {
      for (let i = 0; i < size; i++) combination[i] = i;
      for (;;) {
        if (total <= best) break;
        let count = runningSetCount;
        let sum = runningSum;
        for (let i = 0; i < count; i++) selection[i] = runningSizes[i]!;
        let subsetP = 0;
        for (let i = 0; i < size; i++) {
          const position = combination[i]!;
          const app = waiting[head + position]!;
          inSubset[position] = 1;
          insertSize(selection, count++, sizes[app]!);
          sum += sizes[app]!;
          subsetP += p[app]!;
        }
        let rest = total - subsetP;
        let fits: boolean;
        if (count === 0) fits = budget >= 0;
        else {
          const bw = bandwidth(count, sum / 1000);
          fits = (bw > 0 ? (selection[count - 1]! * count) / bw : Infinity) <= budget;
        }
        if (fits) {
          let value = subsetP;
          let chosenCount = 0;
          for (let position = 0; position < r; position++) {
            if (inSubset[position] === 1) continue;
            const app = waiting[head + position]!;
            const pa = p[app]!;
            rest -= pa;
            if (value + pa + rest <= best) break;
            const extra = sizes[app]!;
            let biggest = count === 0 ? 0 : selection[count - 1]!;
            if (extra > biggest) biggest = extra;
            const bw = bandwidth(count + 1, (sum + extra) / 1000);
            if ((bw > 0 ? (biggest * (count + 1)) / bw : Infinity) <= budget) {
              insertSize(selection, count++, extra);
              sum += extra;
              value += pa;
              chosen[chosenCount++] = position;
            }
          }
          if (value > best) {
            best = value;
            let x = 0;
            let y = 0;
            let out = 0;
            while (x < size || y < chosenCount) {
              if (y >= chosenCount || (x < size && combination[x]! < chosen[y]!)) selected[out++] = combination[x++]!;
              else selected[out++] = chosen[y++]!;
            }
            selectedCount = out;
          }
        }
        for (let i = 0; i < size; i++) inSubset[combination[i]!] = 0;
        let j = size - 1;
        while (j >= 0 && combination[j] === r - size + j) j--;
        if (j < 0) break;
        combination[j]!++;
        for (let i = j + 1; i < size; i++) combination[i] = combination[i - 1]! + 1;
      }
    }
    for (let i = 0; i < selectedCount; i++) toStart[i] = waiting[head + selected[i]!]!;
    let write = head + r - 1;
    let next = selectedCount - 1;
    for (let position = r - 1; position >= 0; position--) {
      if (next >= 0 && selected[next] === position) next--;
      else waiting[write--] = waiting[head + position]!;
    }
    head = write + 1;
    for (let i = 0; i < selectedCount; i++) {
      const app = toStart[i]!;
      remaining[app] = sizes[app]!;
      running[runningCount++] = app;
    }
    if (selectedCount === 0 && runningCount === 0) break;
    // The fluid execution to the next completion(s).
    let left = 0;
    let smallest = Infinity;
    for (let i = 0; i < runningCount; i++) {
      const x = remaining[running[i]!]!;
      left += x;
      if (x < smallest) smallest = x;
    }
    const bw = bandwidth(runningCount, left / 1000);
    if (!(bw > 0)) break;
    now += (smallest * runningCount) / bw;
    let kept = 0;
    for (let i = 0; i < runningCount; i++) {
      const app = running[i]!;
      const after = remaining[app]! - smallest;
      if (after <= 1e-10 * sizes[app]!) {
        remaining[app] = 0;
        finish[app] = now;
      } else {
        remaining[app] = after;
        running[kept++] = app;
      }
    }
    runningCount = kept;
  }
  let ctnys = 0;
  const slack = 1e-9 * Math.max(1, deadline);
  for (let i = 0; i < n; i++) if (finish[i]! <= deadline + slack) ctnys += p[i]!;
  return ctnys;
}
