/*
 * The variable-cost DP placer in plain C: the reference that `npm run bench` compiles with
 * `cc -O2` and runs next to pipeline/place/variable-cost-dp.ts on the same job.
 *
 * The same algorithm, step for step ([BTW10] Prop. 1 eq. 3, docs/science.md §5.2, the
 * `paper` objective): the reachability pass over states (j, θ), the law tables F and
 * M(x) = ∫_0^x t f(t) dt at every reachable state's time τ_j + θq (Weibull, M through the
 * regularised incomplete gamma function by the series / continued fraction of
 * incomplete-gamma.ts, ln Γ from libm), the transition loop over hoisted G and H with ties
 * kept at the earliest r, and the backtracking. Allocation happens once per solve, as in
 * ours.
 *
 * Usage: dp-placer <job file> <runs>
 * The job file: "n quantum_s alpha beta shape scale_s", then n lines "slice_s cost_quanta".
 * Prints "waste W", "checkpoints j1 j2 …", then "median_micros X tables_micros Y
 * search_micros Z" (medians over <runs> solves after one warm-up), then "libm_ns pow P
 * expm1 Q exp R log S": what one call of each costs here on the arguments the tables use
 * (z = (t/λ)^k at every state's time t), to set against V8's Math functions.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double shape, scale, gamma_a, log_gamma_a, mean;

static double prefactor(double a, double x) { return exp(a * log(x) - x - log_gamma_a); }

static double lower_series(double a, double x) {
  double denominator = a, term = 1 / a, sum = term;
  for (int n = 0; n < 100000; n++) {
    denominator += 1;
    term *= x / denominator;
    sum += term;
    if (fabs(term) < fabs(sum) * 1e-16) return sum * prefactor(a, x);
  }
  return NAN;
}

static double upper_fraction(double a, double x) {
  const double tiny = 1e-300;
  double b = x + 1 - a, c = 1 / tiny, d = 1 / b, h = d;
  for (int i = 1; i < 100000; i++) {
    double an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (fabs(d) < tiny) d = tiny;
    c = b + an / c;
    if (fabs(c) < tiny) c = tiny;
    d = 1 / d;
    double delta = d * c;
    h *= delta;
    if (fabs(delta - 1) < 1e-16) return prefactor(a, x) * h;
  }
  return NAN;
}

static double gamma_p(double a, double x) {
  if (x <= 0) return 0;
  return x < a + 1 ? lower_series(a, x) : 1 - upper_fraction(a, x);
}

static double cdf(double t) { return t <= 0 ? 0 : -expm1(-pow(t / scale, shape)); }
static double partial_expectation(double t) { return t <= 0 ? 0 : mean * gamma_p(gamma_a, pow(t / scale, shape)); }

static int n, *costs, *parent, *first_row, *checkpoints, checkpoint_count;
static double q, alpha, beta, *slices, *tau, *cumulative, *state_times;
static int state_count;
static unsigned char *reach, *reached_before;
static double *table_cdf, *table_moment, *waste, *hoisted, *slope;

static double now_micros(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

static double solve(double *tables_micros, double *search_micros) {
  double start = now_micros();
  int width = n + 1;
  tau[0] = 0;
  cumulative[0] = 0;
  for (int j = 1; j <= n; j++) {
    tau[j] = tau[j - 1] + slices[j - 1];
    cumulative[j] = cumulative[j - 1] + costs[j - 1];
  }
  int total = (int)cumulative[n];
  size_t size = (size_t)(total + 1) * width;
  reach = calloc(size, 1);
  reached_before = calloc(total + 1, 1);
  reach[0] = 1;
  reached_before[0] = 1;
  for (int l = 1; l <= n; l++) {
    int c = costs[l - 1];
    for (int sigma = 0; sigma <= (int)cumulative[l - 1]; sigma++)
      if (reached_before[sigma]) reach[(size_t)(sigma + c) * width + l] = 1;
    for (int theta = c; theta <= (int)cumulative[l]; theta++)
      if (reach[(size_t)theta * width + l]) reached_before[theta] = 1;
  }
  table_cdf = malloc(size * sizeof(double));
  table_moment = malloc(size * sizeof(double));
  for (int j = 0; j <= n; j++) {
    for (int s = 0; s <= (int)cumulative[j]; s++) {
      size_t index = (size_t)s * width + j;
      if (!reach[index]) continue;
      double t = tau[j] + s * q;
      table_cdf[index] = cdf(t);
      table_moment[index] = partial_expectation(t);
    }
  }
  double tables_done = now_micros();

  waste = malloc(size * sizeof(double));
  hoisted = malloc(size * sizeof(double));
  slope = malloc(size * sizeof(double));
  parent = malloc(size * sizeof(int));
  for (size_t i = 0; i < size; i++) waste[i] = hoisted[i] = INFINITY, slope[i] = 0;
  waste[0] = 0;
  slope[0] = -alpha * tau[0];
  hoisted[0] = -slope[0] * table_cdf[0] - (alpha - beta) * table_moment[0];
  first_row = malloc((total + 1) * sizeof(int));
  for (int sigma = 0, r = 0; sigma <= total; sigma++) {
    while (cumulative[r] < sigma) r++;
    first_row[sigma] = r;
  }
  double alpha_minus_beta = alpha - beta, one_minus_alpha_q = (1 - alpha) * q;
  for (int l = 1; l <= n; l++) {
    int c = costs[l - 1];
    double tau_l = tau[l];
    int max_theta = (int)cumulative[l];
    for (int theta = c; theta <= max_theta; theta++) {
      size_t index = (size_t)theta * width + l;
      if (!reach[index]) continue;
      size_t base = (size_t)(theta - c) * width;
      double cdf_l = table_cdf[index], beta_rho = beta * (tau_l + theta * q), best = INFINITY;
      int best_r = -1;
      if (beta_rho == 0) {
        for (int r = first_row[theta - c]; r < l; r++) {
          double value = hoisted[base + r] + cdf_l * slope[base + r];
          if (value < best) best = value, best_r = r;
        }
      } else {
        for (int r = first_row[theta - c]; r < l; r++) {
          double value = hoisted[base + r] + cdf_l * slope[base + r] - beta_rho * table_cdf[base + r];
          if (value < best) best = value, best_r = r;
        }
      }
      waste[index] = best + beta_rho * cdf_l + alpha_minus_beta * table_moment[index];
      parent[index] = best_r;
    }
    double slope_base = -alpha * tau_l;
    for (int theta = c; theta <= max_theta; theta++) {
      size_t index = (size_t)theta * width + l;
      if (!reach[index]) continue;
      double h = theta * one_minus_alpha_q + slope_base;
      slope[index] = h;
      hoisted[index] = waste[index] - h * table_cdf[index] - alpha_minus_beta * table_moment[index];
    }
  }
  int best_theta = -1;
  double best_waste = INFINITY;
  for (int theta = costs[n - 1]; theta <= total; theta++) {
    size_t index = (size_t)theta * width + n;
    if (reach[index] && waste[index] < best_waste) best_waste = waste[index], best_theta = theta;
  }
  checkpoint_count = 0;
  for (int l = n, theta = best_theta; l > 0;) {
    checkpoints[checkpoint_count++] = l;
    int r = parent[(size_t)theta * width + l];
    theta -= costs[l - 1];
    l = r;
  }
  free(reach), free(reached_before), free(table_cdf), free(table_moment);
  free(waste), free(hoisted), free(slope), free(parent), free(first_row);
  double done = now_micros();
  *tables_micros = tables_done - start;
  *search_micros = done - tables_done;
  return best_waste;
}

/* ns per call of pow, expm1, exp and log at the times τ_j + s q of every state (j, s ≤ S_j), best of 5. */
static void libm_costs(double ns[4]) {
  volatile double sink = 0;
  state_count = 0;
  state_times = malloc((size_t)(n + 1) * ((size_t)cumulative[n] + 1) * sizeof(double));
  for (int j = 0; j <= n; j++)
    for (int s = 0; s <= (int)cumulative[j]; s++) state_times[state_count++] = tau[j] + s * q;
  double *z = malloc(state_count * sizeof(double));
  for (int i = 0; i < state_count; i++) z[i] = pow(state_times[i] / scale, shape);
  for (int f = 0; f < 4; f++) {
    ns[f] = INFINITY;
    for (int repeat = 0; repeat < 5; repeat++) {
      double start = now_micros(), sum = 0;
      for (int i = 0; i < state_count; i++) {
        double x = f == 0 ? pow(state_times[i] / scale, shape) : f == 1 ? expm1(-z[i]) : f == 2 ? exp(-z[i]) : log(z[i]);
        sum += x;
      }
      sink += sum;
      double elapsed = (now_micros() - start) * 1000 / state_count;
      if (elapsed < ns[f]) ns[f] = elapsed;
    }
  }
  (void)sink;
  free(z);
  free(state_times);
}

static int compare_doubles(const void *x, const void *y) {
  double a = *(const double *)x, b = *(const double *)y;
  return (a > b) - (a < b);
}

static double median(double *values, int count) {
  qsort(values, count, sizeof(double), compare_doubles);
  return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: dp-placer <job file> <runs>\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "r");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  if (fscanf(in, "%d %lf %lf %lf %lf %lf", &n, &q, &alpha, &beta, &shape, &scale) != 6 || n < 1) {
    fprintf(stderr, "%s: expected \"n quantum_s alpha beta shape scale_s\" on the first line\n", argv[1]);
    return 1;
  }
  slices = malloc(n * sizeof(double));
  costs = malloc(n * sizeof(int));
  tau = malloc((n + 1) * sizeof(double));
  cumulative = malloc((n + 1) * sizeof(double));
  checkpoints = malloc(n * sizeof(int));
  for (int j = 0; j < n; j++) {
    if (fscanf(in, "%lf %d", &slices[j], &costs[j]) != 2) {
      fprintf(stderr, "%s: slice %d: expected \"slice_s cost_quanta\"\n", argv[1], j + 1);
      return 1;
    }
  }
  gamma_a = 1 + 1 / shape;
  log_gamma_a = lgamma(gamma_a);
  mean = scale * exp(log_gamma_a);
  int runs = atoi(argv[2]);
  double *totals = malloc(runs * sizeof(double)), *tables = malloc(runs * sizeof(double)), *searches = malloc(runs * sizeof(double));
  double tables_micros, search_micros, result = solve(&tables_micros, &search_micros); /* warm-up */
  for (int r = 0; r < runs; r++) {
    result = solve(&tables[r], &searches[r]);
    totals[r] = tables[r] + searches[r];
  }
  printf("waste %.17g\ncheckpoints", result);
  for (int k = checkpoint_count - 1; k >= 0; k--) printf(" %d", checkpoints[k]);
  printf("\nmedian_micros %.3f tables_micros %.3f search_micros %.3f\n", median(totals, runs), median(tables, runs), median(searches, runs));
  double ns[4];
  libm_costs(ns);
  printf("libm_ns pow %.2f expm1 %.2f exp %.2f log %.2f\n", ns[0], ns[1], ns[2], ns[3]);
  return 0;
}
