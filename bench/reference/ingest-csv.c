/*
 * A canonical-CSV ingest in plain C: the reference that `npm run bench` compiles with
 * `cc -O2` and runs next to `ckpt ingest` on the same file.
 *
 * What it does, as pipeline/ingest does for an unquoted canonical file: reads the file in
 * 1 MiB chunks; finds the canonical columns by name in the header (any order, other
 * columns kept as extras); per row checks the field count, empty fields, numbers (strtod
 * over the whole field, finite), m a whole number >= 1, size_mb > 0, ckpt_mb > 0,
 * end_s > start_s, and a duplicate (run_id, node); per run (a hash table on run_id)
 * accumulates the processes' bandwidth ckpt_mb / (end_s - start_s), the sizes and m, and
 * whether each extra column is equal across the run; then drops the runs whose m
 * contradicts itself or whose valid rows are not m, and aggregates the runs of one size
 * per (size_mb, m): count, mean and sample standard deviation of the run bandwidth.
 * What it does not do, and ours does: quoted fields (ours falls back to csv-parse there),
 * the rejects file with each row's text, the SHA-256 of the input, the JSON artifact.
 *
 * Usage: ingest-csv <file.csv>
 * Prints "rows R accepted A runs U cells C", then one line per (size_mb, m) cell
 * "size m count mean sd", sorted.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { RUN_ID, NODE, M, SIZE, CKPT, START, END, CANONICAL };
static const char *CANONICAL_NAMES[CANONICAL] = {"run_id", "node", "m", "size_mb", "ckpt_mb", "start_s", "end_s"};
#define MAX_FIELDS 64

typedef struct {
  uint64_t hash;
  size_t key;     /* run_id in the arena */
  int key_length;
  size_t extras;  /* the first row's extra fields in the arena, joined by '\x1f' */
  int extras_length;
  int extras_differ;
  double m, bandwidth, size_min, size_max, size_sum;
  int rows, bad_rows, contradicting;
  int node_first; /* index of the first node of this run in the node list */
} Run;

typedef struct {
  size_t name;
  int length;
  int next; /* next node of the same run, or -1 */
} Node;

static char *arena;
static size_t arena_used, arena_size;
static Run *runs;
static int run_count, run_capacity;
static int *slots;
static size_t slot_count;
static Node *nodes;
static int node_count, node_capacity;

static void *must(void *pointer) {
  if (pointer == NULL) {
    fprintf(stderr, "out of memory\n");
    exit(1);
  }
  return pointer;
}

static size_t store(const char *text, int length) {
  if (arena_used + length > arena_size) {
    while (arena_used + length > arena_size) arena_size *= 2;
    arena = must(realloc(arena, arena_size));
  }
  memcpy(arena + arena_used, text, length);
  arena_used += length;
  return arena_used - length;
}

static uint64_t fnv1a(const char *text, int length) {
  uint64_t hash = 1469598103934665603ull;
  for (int i = 0; i < length; i++) hash = (hash ^ (unsigned char)text[i]) * 1099511628211ull;
  return hash;
}

static void grow_slots(void) {
  size_t count = slot_count * 2;
  int *grown = must(malloc(count * sizeof(int)));
  for (size_t i = 0; i < count; i++) grown[i] = -1;
  for (int r = 0; r < run_count; r++) {
    size_t i = runs[r].hash & (count - 1);
    while (grown[i] >= 0) i = (i + 1) & (count - 1);
    grown[i] = r;
  }
  free(slots);
  slots = grown;
  slot_count = count;
}

static Run *find_run(const char *id, int length, int *created) {
  uint64_t hash = fnv1a(id, length);
  size_t i = hash & (slot_count - 1);
  while (slots[i] >= 0) {
    Run *run = &runs[slots[i]];
    if (run->hash == hash && run->key_length == length && memcmp(arena + run->key, id, length) == 0) {
      *created = 0;
      return run;
    }
    i = (i + 1) & (slot_count - 1);
  }
  if (run_count == run_capacity) runs = must(realloc(runs, sizeof(Run) * (run_capacity *= 2)));
  Run *run = &runs[run_count];
  memset(run, 0, sizeof(Run));
  run->hash = hash;
  run->key = store(id, length);
  run->key_length = length;
  run->node_first = -1;
  slots[i] = run_count++;
  if (run_count * 2 > (int)slot_count) grow_slots();
  *created = 1;
  return &runs[run_count - 1];
}

/*
 * A number over the whole field, finite. Plain decimals of up to 15 digits are exact as
 * digits / 10^k (both exactly representable, one correctly rounded division), as in
 * pipeline/ingest/decimal.ts; anything else goes through strtod.
 */
static const double POWERS_OF_TEN[16] = {1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15};

static int parse_number(const char *text, int length, double *value) {
  int i = 0, negative = 0, digits = 0, decimals = -1;
  uint64_t mantissa = 0;
  if (length > 0 && text[0] == '-') negative = 1, i = 1;
  for (; i < length; i++) {
    char ch = text[i];
    if (ch >= '0' && ch <= '9') {
      mantissa = mantissa * 10 + (uint64_t)(ch - '0');
      digits++;
      if (decimals >= 0) decimals++;
    } else if (ch == '.' && decimals < 0) {
      decimals = 0;
    } else {
      break;
    }
  }
  if (i == length && digits > 0 && digits <= 15 && decimals != 0) {
    double magnitude = (double)mantissa;
    if (decimals > 0) magnitude /= POWERS_OF_TEN[decimals];
    *value = negative ? -magnitude : magnitude;
    return 1;
  }
  char buffer[64];
  if (length == 0 || length >= (int)sizeof buffer) return 0;
  memcpy(buffer, text, length);
  buffer[length] = 0;
  char *end;
  *value = strtod(buffer, &end);
  return end == buffer + length && isfinite(*value);
}

/* Count, mean and sum of squared deviations (Welford) of the run bandwidth in one cell. */
typedef struct {
  double size, m;
  int count;
  double mean, squares;
} Cell;

static int compare_cells(const void *x, const void *y) {
  const Cell *a = x, *b = y;
  if (a->size != b->size) return a->size < b->size ? -1 : 1;
  return (a->m > b->m) - (a->m < b->m);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: ingest-csv <file.csv>\n");
    return 2;
  }
  FILE *in = fopen(argv[1], "rb");
  if (in == NULL) {
    perror(argv[1]);
    return 1;
  }
  arena_size = 1 << 20;
  arena = must(malloc(arena_size));
  run_capacity = 1024;
  runs = must(malloc(sizeof(Run) * run_capacity));
  slot_count = 2048;
  slots = must(malloc(slot_count * sizeof(int)));
  for (size_t i = 0; i < slot_count; i++) slots[i] = -1;
  node_capacity = 4096;
  nodes = must(malloc(sizeof(Node) * node_capacity));

  const size_t chunk = 1 << 20;
  char *buffer = must(malloc(2 * chunk));
  size_t carried = 0;
  int column_of[CANONICAL], field_count = 0, header_done = 0;
  long rows = 0, accepted_rows = 0, rejected_rows = 0;
  const char *field[MAX_FIELDS];
  int field_length[MAX_FIELDS];
  char extras[4096];

  for (;;) {
    size_t got = fread(buffer + carried, 1, chunk, in);
    size_t available = carried + got;
    size_t line_start = 0;
    for (size_t i = 0; i < available; i++) {
      if (buffer[i] != '\n') continue;
      const char *line = buffer + line_start;
      int length = (int)(i - line_start);
      line_start = i + 1;
      if (length > 0 && line[length - 1] == '\r') length--;
      if (length == 0) continue;
      int count = 0, from = 0;
      for (int k = 0; k <= length; k++) {
        if (k == length || line[k] == ',') {
          if (count < MAX_FIELDS) field[count] = line + from, field_length[count] = k - from;
          count++;
          from = k + 1;
        }
      }
      if (!header_done) {
        field_count = count;
        for (int c = 0; c < CANONICAL; c++) {
          column_of[c] = -1;
          for (int k = 0; k < count && k < MAX_FIELDS; k++)
            if ((int)strlen(CANONICAL_NAMES[c]) == field_length[k] && memcmp(field[k], CANONICAL_NAMES[c], field_length[k]) == 0) column_of[c] = k;
          if (column_of[c] < 0) {
            fprintf(stderr, "%s: the header has no column %s\n", argv[1], CANONICAL_NAMES[c]);
            return 1;
          }
        }
        header_done = 1;
        continue;
      }
      rows++;
      if (count != field_count || count > MAX_FIELDS) {
        rejected_rows++;
        continue;
      }
      int empty = 0;
      for (int c = 0; c < CANONICAL; c++) empty |= field_length[column_of[c]] == 0;
      double m, size, ckpt, start, end;
      if (empty || !parse_number(field[column_of[M]], field_length[column_of[M]], &m) ||
          !parse_number(field[column_of[SIZE]], field_length[column_of[SIZE]], &size) ||
          !parse_number(field[column_of[CKPT]], field_length[column_of[CKPT]], &ckpt) ||
          !parse_number(field[column_of[START]], field_length[column_of[START]], &start) ||
          !parse_number(field[column_of[END]], field_length[column_of[END]], &end) || m < 1 || m != floor(m) || size <= 0 ||
          ckpt <= 0 || end <= start) {
        rejected_rows++;
        continue;
      }
      int created;
      Run *run = find_run(field[column_of[RUN_ID]], field_length[column_of[RUN_ID]], &created);
      /* Extra columns, joined, compared with the run's first row. */
      int extras_length = 0;
      for (int k = 0; k < count; k++) {
        int canonical = 0;
        for (int c = 0; c < CANONICAL; c++) canonical |= column_of[c] == k;
        if (canonical) continue;
        if (extras_length + field_length[k] + 1 > (int)sizeof extras) break;
        memcpy(extras + extras_length, field[k], field_length[k]);
        extras_length += field_length[k];
        extras[extras_length++] = '\x1f';
      }
      const char *node = field[column_of[NODE]];
      int node_length = field_length[column_of[NODE]];
      if (created) {
        run->m = m;
        run->size_min = run->size_max = size;
        run->extras = store(extras, extras_length);
        run->extras_length = extras_length;
      } else {
        int duplicate = 0;
        for (int k = run->node_first; k >= 0; k = nodes[k].next)
          if (nodes[k].length == node_length && memcmp(arena + nodes[k].name, node, node_length) == 0) duplicate = 1;
        if (duplicate) {
          rejected_rows++;
          run->bad_rows++;
          continue;
        }
        if (m != run->m) run->contradicting = 1;
        if (extras_length != run->extras_length || memcmp(arena + run->extras, extras, extras_length) != 0) run->extras_differ = 1;
        if (size < run->size_min) run->size_min = size;
        if (size > run->size_max) run->size_max = size;
      }
      if (node_count == node_capacity) nodes = must(realloc(nodes, sizeof(Node) * (node_capacity *= 2)));
      nodes[node_count] = (Node){store(node, node_length), node_length, run->node_first};
      run->node_first = node_count++;
      run->rows++;
      run->size_sum += size;
      run->bandwidth += ckpt / (end - start);
      accepted_rows++;
    }
    carried = available - line_start;
    memmove(buffer, buffer + line_start, carried);
    if (got == 0) break;
  }
  if (carried > 0) {
    fprintf(stderr, "%s: the last line has no newline; not counted\n", argv[1]);
  }

  Cell *cells = must(malloc(sizeof(Cell) * (run_count + 1)));
  int cell_count = 0, accepted_runs = 0, last_cell = -1;
  for (int r = 0; r < run_count; r++) {
    Run *run = &runs[r];
    if (run->contradicting || run->rows != (int)run->m) {
      rejected_rows += run->rows;
      accepted_rows -= run->rows;
      continue;
    }
    accepted_runs++;
    if (run->size_min != run->size_max) continue; /* a validation run of mixed sizes */
    int c = last_cell;
    if (c < 0 || cells[c].size != run->size_min || cells[c].m != run->m) {
      c = 0;
      while (c < cell_count && !(cells[c].size == run->size_min && cells[c].m == run->m)) c++;
      if (c == cell_count) cells[cell_count++] = (Cell){run->size_min, run->m, 0, 0, 0};
      last_cell = c;
    }
    Cell *cell = &cells[c];
    double delta = run->bandwidth - cell->mean;
    cell->count++;
    cell->mean += delta / cell->count;
    cell->squares += delta * (run->bandwidth - cell->mean);
  }
  qsort(cells, cell_count, sizeof(Cell), compare_cells);
  printf("rows %ld accepted %ld runs %d cells %d\n", rows, accepted_rows, accepted_runs, cell_count);
  for (int c = 0; c < cell_count; c++) {
    double sd = cells[c].count > 1 ? sqrt(cells[c].squares / (cells[c].count - 1)) : 0;
    printf("%.17g %.17g %d %.17g %.17g\n", cells[c].size, cells[c].m, cells[c].count, cells[c].mean, sd);
  }
  return 0;
}
