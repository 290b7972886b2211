/*
 * ScheduleCkpt in plain C: the reference that `npm run bench` compiles with `cc -O2` and
 * runs next to pipeline/schedule/schedule-ckpt.ts on the same instances.
 *
 * The same algorithm, decision for decision (docs/science.md §4.3, [Y-thesis] Algorithms 1
 * and 2, Annex A): criterion order (decreasing p or p/s, ties by index), index_bw_max from
 * bw(0, 0) = e on an idle device, ks_bw with |J| <= k0 and the result-preserving pruning,
 * the static or fluid estimate, the fluid execution between decisions, the domain
 * policy refuse of bandwidth-oracle.ts (a point above the fitted box, or bw <= 0, is infeasible).
 * Only the paper form of the model. No allocation inside a run; nothing is counted.
 *
 * Usage: schedule-ckpt <instances file> <deadline s> <k0> <static|fluid> <p|density>
 *                      <a> <b> <c> <d> <e> <mMax> <vGbMax> <repeats>
 * The instances file holds, per instance, a line "n" then n lines "p size_mb".
 * Prints one line per instance, "ctnys checkpointed decisions micros", where micros is the
 * best of <repeats> warm runs of the whole algorithm (order, decisions, execution), and
 * ends with "median_micros X" over the instances.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double A, B, C, D, E, M_MAX, V_MAX;

static double bandwidth(int m, double v_gb) {
  if (m > M_MAX || v_gb > V_MAX) return NAN;
  double m2 = (double)m * m, v2 = v_gb * v_gb;
  double bw = A * m2 * v2 + B * m2 + C * v2 + D * m + E;
  return bw > 0 ? bw : NAN;
}

typedef struct {
  double *sizes; /* ascending */
  int count;
  double sum;
} SizeSet;

static void insert_size(SizeSet *set, double size) {
  int i = set->count;
  while (i > 0 && set->sizes[i - 1] > size) {
    set->sizes[i] = set->sizes[i - 1];
    i--;
  }
  set->sizes[i] = size;
  set->count++;
  set->sum += size;
}

static void copy_set(const SizeSet *from, SizeSet *to) {
  memcpy(to->sizes, from->sizes, sizeof(double) * from->count);
  to->count = from->count;
  to->sum = from->sum;
}

static int fluid_estimator;

static double finish_time(const SizeSet *set, double extra, double budget) {
  if (!fluid_estimator) {
    int has_extra = extra > 0;
    int m = has_extra ? set->count + 1 : set->count;
    if (m == 0) return 0;
    double largest = set->count == 0 ? 0 : set->sizes[set->count - 1];
    if (extra > largest) largest = extra;
    double bw = bandwidth(m, (set->sum + (has_extra ? extra : 0)) / 1000);
    return bw > 0 ? largest * m / bw : INFINITY;
  }
  int pending = extra > 0, count = set->count, next = 0;
  int running = pending ? count + 1 : count;
  double total = set->sum + (pending ? extra : 0), previous = 0, finished = 0, t = 0;
  while (running > 0) {
    double size;
    if (pending && (next >= count || extra <= set->sizes[next])) {
      size = extra;
      pending = 0;
    } else {
      size = set->sizes[next++];
    }
    if (size > previous) {
      double bw = bandwidth(running, (total - finished - running * previous) / 1000);
      if (!(bw > 0)) return INFINITY;
      t += (size - previous) * running / bw;
      if (t > budget) return t;
      previous = size;
    }
    finished += size;
    running--;
  }
  return t;
}

/* Workspace of one run, allocated once per instance size. */
typedef struct {
  int n;
  int *waiting, *running, *to_start, *combination, *chosen, *selected, *order;
  unsigned char *in_subset;
  double *remaining, *finish, *key;
  SizeSet running_set, selection;
  int selected_count;
} Work;

static const double *sort_key;
static int by_key(const void *x, const void *y) {
  int a = *(const int *)x, b = *(const int *)y;
  if (sort_key[a] != sort_key[b]) return sort_key[a] > sort_key[b] ? -1 : 1;
  return a - b;
}

static int index_bw_max(Work *w, int head, const double *sizes) {
  int m = w->running_set.count;
  double volume = w->running_set.sum;
  double current = m == 0 ? E : bandwidth(m, volume / 1000);
  if (!(current > 0)) current = -INFINITY;
  int k = head;
  for (; k < w->n; k++) {
    double size = sizes[w->waiting[k]];
    double next = bandwidth(m + 1, (volume + size) / 1000);
    if (!(next >= current)) break;
    m++;
    volume += size;
    current = next;
  }
  return k - head;
}

static double ks_bw(Work *w, int head, int r, const double *sizes, const double *p, double budget, int k0) {
  int *combination = w->combination, *chosen = w->chosen, *selected = w->selected;
  unsigned char *in_subset = w->in_subset;
  double total = 0;
  for (int k = 0; k < r; k++) total += p[w->waiting[head + k]];
  int largest = k0 < r ? k0 : r;
  double best = -INFINITY;
  w->selected_count = 0;
  for (int size = 0; size <= largest; size++) {
    for (int k = 0; k < size; k++) combination[k] = k;
    for (;;) {
      if (total <= best) break;
      copy_set(&w->running_set, &w->selection);
      double subset_p = 0;
      for (int k = 0; k < size; k++) {
        int position = combination[k], app = w->waiting[head + position];
        in_subset[position] = 1;
        insert_size(&w->selection, sizes[app]);
        subset_p += p[app];
      }
      double rest = total - subset_p;
      int fits = w->selection.count == 0 ? budget >= 0 : finish_time(&w->selection, 0, budget) <= budget;
      if (fits) {
        double value = subset_p;
        int chosen_count = 0;
        for (int position = 0; position < r; position++) {
          if (in_subset[position]) continue;
          int app = w->waiting[head + position];
          double pa = p[app];
          rest -= pa;
          if (value + pa + rest <= best) break;
          if (finish_time(&w->selection, sizes[app], budget) <= budget) {
            insert_size(&w->selection, sizes[app]);
            value += pa;
            chosen[chosen_count++] = position;
          }
        }
        if (value > best) {
          best = value;
          int a = 0, b = 0, out = 0;
          while (a < size || b < chosen_count) {
            if (b >= chosen_count || (a < size && combination[a] < chosen[b])) selected[out++] = combination[a++];
            else selected[out++] = chosen[b++];
          }
          w->selected_count = out;
        }
      }
      for (int k = 0; k < size; k++) in_subset[combination[k]] = 0;
      int k = size - 1;
      while (k >= 0 && combination[k] == r - size + k) k--;
      if (k < 0) break;
      combination[k]++;
      for (int j = k + 1; j < size; j++) combination[j] = combination[j - 1] + 1;
    }
  }
  return best;
}

typedef struct {
  double ctnys;
  int checkpointed, decisions;
} Outcome;

static Outcome schedule_ckpt(Work *w, const double *sizes, const double *p, double deadline, int k0, int density) {
  int n = w->n;
  for (int i = 0; i < n; i++) {
    w->key[i] = density ? p[i] / sizes[i] : p[i];
    w->order[i] = i;
    w->finish[i] = NAN;
  }
  sort_key = w->key;
  qsort(w->order, n, sizeof(int), by_key);
  memcpy(w->waiting, w->order, sizeof(int) * n);
  int head = 0, running_count = 0, decisions = 0;
  double now = 0;
  for (;;) {
    decisions++;
    w->running_set.count = 0;
    w->running_set.sum = 0;
    for (int k = 0; k < running_count; k++) insert_size(&w->running_set, w->remaining[w->running[k]]);
    double budget = deadline - now;
    int r = index_bw_max(w, head, sizes);
    ks_bw(w, head, r, sizes, p, budget, k0);
    int start_count = w->selected_count;
    for (int k = 0; k < start_count; k++) w->to_start[k] = w->waiting[head + w->selected[k]];
    int write = head + r - 1, next = start_count - 1;
    for (int position = r - 1; position >= 0; position--) {
      if (next >= 0 && w->selected[next] == position) next--;
      else w->waiting[write--] = w->waiting[head + position];
    }
    head = write + 1;
    for (int k = 0; k < start_count; k++) {
      int app = w->to_start[k];
      w->remaining[app] = sizes[app];
      w->running[running_count++] = app;
    }
    if (start_count == 0 && running_count == 0) break;
    /* The fluid execution: advance to the next completion(s). */
    double volume = 0, smallest = INFINITY;
    for (int k = 0; k < running_count; k++) {
      double left = w->remaining[w->running[k]];
      volume += left;
      if (left < smallest) smallest = left;
    }
    double bw = bandwidth(running_count, volume / 1000);
    if (!(bw > 0)) break; /* stalled */
    now += smallest * running_count / bw;
    int kept = 0;
    for (int k = 0; k < running_count; k++) {
      int app = w->running[k];
      double left = w->remaining[app] - smallest;
      if (left <= 1e-10 * sizes[app]) {
        w->remaining[app] = 0;
        w->finish[app] = now;
      } else {
        w->remaining[app] = left;
        w->running[kept++] = app;
      }
    }
    running_count = kept;
  }
  Outcome outcome = {0, 0, decisions};
  double slack = 1e-9 * (deadline > 1 ? deadline : 1);
  for (int i = 0; i < n; i++) {
    if (!isnan(w->finish[i]) && w->finish[i] <= deadline + slack) {
      outcome.ctnys += p[i];
      outcome.checkpointed++;
    }
  }
  return outcome;
}

static double now_micros(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static int compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static void *must(void *pointer) {
  if (pointer == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return pointer;
}

int main(int argc, char **argv) {
  if (argc != 14) {
    fprintf(stderr, "usage: schedule-ckpt <instances> <deadline> <k0> <static|fluid> <p|density> <a> <b> <c> <d> <e> <mMax> <vGbMax> <repeats>\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "r");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  double deadline = atof(argv[2]);
  int k0 = atoi(argv[3]);
  fluid_estimator = strcmp(argv[4], "fluid") == 0;
  int density = strcmp(argv[5], "density") == 0;
  A = atof(argv[6]), B = atof(argv[7]), C = atof(argv[8]), D = atof(argv[9]), E = atof(argv[10]);
  M_MAX = atof(argv[11]), V_MAX = atof(argv[12]);
  int repeats = atoi(argv[13]);

  int capacity = 64, instances = 0, n;
  double *micros = must(malloc(sizeof(double) * capacity));
  double checksum = 0;
  while (fscanf(in, "%d", &n) == 1) {
    double *p = must(malloc(sizeof(double) * n)), *sizes = must(malloc(sizeof(double) * n));
    for (int i = 0; i < n; i++) {
      if (fscanf(in, "%lf %lf", &p[i], &sizes[i]) != 2) {
        fprintf(stderr, "%s: instance %d: expected %d lines \"p size_mb\"\n", argv[1], instances + 1, n);
        return 1;
      }
    }
    Work w = {.n = n};
    w.waiting = must(malloc(sizeof(int) * n));
    w.running = must(malloc(sizeof(int) * n));
    w.to_start = must(malloc(sizeof(int) * n));
    w.combination = must(malloc(sizeof(int) * (n + 1)));
    w.chosen = must(malloc(sizeof(int) * n));
    w.selected = must(malloc(sizeof(int) * n));
    w.order = must(malloc(sizeof(int) * n));
    w.in_subset = must(calloc(n, 1));
    w.remaining = must(malloc(sizeof(double) * n));
    w.finish = must(malloc(sizeof(double) * n));
    w.key = must(malloc(sizeof(double) * n));
    w.running_set.sizes = must(malloc(sizeof(double) * n));
    w.selection.sizes = must(malloc(sizeof(double) * n));

    Outcome outcome = schedule_ckpt(&w, sizes, p, deadline, k0, density); /* warm-up */
    double best = INFINITY;
    for (int r = 0; r < repeats; r++) {
      double start = now_micros();
      outcome = schedule_ckpt(&w, sizes, p, deadline, k0, density);
      double elapsed = now_micros() - start;
      if (elapsed < best) best = elapsed;
      checksum += outcome.ctnys;
    }
    if (instances == capacity) micros = must(realloc(micros, sizeof(double) * (capacity *= 2)));
    micros[instances++] = best;
    printf("%.17g %d %d %.4f\n", outcome.ctnys, outcome.checkpointed, outcome.decisions, best);
    free(p), free(sizes), free(w.waiting), free(w.running), free(w.to_start), free(w.combination), free(w.chosen);
    free(w.selected), free(w.order), free(w.in_subset), free(w.remaining), free(w.finish), free(w.key);
    free(w.running_set.sizes), free(w.selection.sizes);
  }
  if (instances == 0) {
    fprintf(stderr, "%s: no instances\n", argv[1]);
    return 1;
  }
  qsort(micros, instances, sizeof(double), compare_doubles);
  double median = instances % 2 ? micros[instances / 2] : (micros[instances / 2 - 1] + micros[instances / 2]) / 2;
  printf("median_micros %.4f checksum %.17g\n", median, checksum);
  return 0;
}
