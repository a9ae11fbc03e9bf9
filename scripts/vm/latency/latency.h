/* Shared by the kernel tier's latency readers (scripts/vm/latency/): a
 * growing list of latencies in microseconds, summarised as p50/p99. */
#ifndef GESTURED_LATENCY_H
#define GESTURED_LATENCY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct samples {
	int64_t *values;
	size_t count, capacity;
};

static inline int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static inline void add_sample(struct samples *s, int64_t value)
{
	if (s->count == s->capacity) {
		s->capacity = s->capacity ? s->capacity * 2 : 1024;
		s->values = realloc(s->values, s->capacity * sizeof *s->values);
		if (!s->values) {
			perror("realloc");
			exit(1);
		}
	}
	s->values[s->count++] = value;
}

static int compare_samples(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Appends every sample, one per line, to PATH (none: nothing), so several
 * runs can be summarised together. */
static inline void save_samples(const char *path, const struct samples *s)
{
	if (!path)
		return;
	FILE *f = fopen(path, "a");
	if (!f) {
		perror(path);
		exit(1);
	}
	for (size_t i = 0; i < s->count; i++)
		fprintf(f, "%lld\n", (long long)s->values[i]);
	fclose(f);
}

/* Prints "<label> samples N p50 P p99 Q" (µs); nearest-rank percentiles. */
static inline void print_summary(const char *label, struct samples *s)
{
	if (s->count == 0) {
		printf("%s samples 0\n", label);
		return;
	}
	qsort(s->values, s->count, sizeof *s->values, compare_samples);
	size_t p50 = (s->count * 50 + 99) / 100, p99 = (s->count * 99 + 99) / 100;
	printf("%s samples %zu p50 %lld p99 %lld\n", label, s->count,
	       (long long)s->values[p50 ? p50 - 1 : 0], (long long)s->values[p99 ? p99 - 1 : 0]);
	fflush(stdout);
}

#endif
