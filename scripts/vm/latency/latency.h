/* Shared by the kernel tier's latency readers (scripts/vm/latency/): a
 * growing list of latencies in microseconds, each with the kernel timestamp
 * of the frame it belongs to (so the guest script can tell a reader's first,
 * unwarmed cycle from the measured one), summarised as p50/p99. */
#ifndef GESTURED_LATENCY_H
#define GESTURED_LATENCY_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct samples {
	int64_t *values; /* latencies, µs */
	int64_t *frames; /* the kernel timestamp of each one's frame, µs */
	size_t count, capacity;
};

static inline int64_t now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

/* Notes one latency: RECEIVED (µs) minus FRAME, the kernel timestamp of the
 * frame the event belongs to. */
static inline void add_sample(struct samples *s, int64_t frame, int64_t received)
{
	if (s->count == s->capacity) {
		s->capacity = s->capacity ? s->capacity * 2 : 1024;
		s->values = realloc(s->values, s->capacity * sizeof *s->values);
		s->frames = realloc(s->frames, s->capacity * sizeof *s->frames);
		if (!s->values || !s->frames) {
			perror("realloc");
			exit(1);
		}
	}
	s->frames[s->count] = frame;
	s->values[s->count++] = received - frame;
}

static int compare_samples(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* Appends every sample to PATH (none: nothing), one "FRAME LATENCY" line
 * each (µs), so several runs can be summarised together and a cycle's
 * samples told from another's by their frames' time. Call it before
 * print_summary, which sorts the latencies alone. */
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
		fprintf(f, "%lld %lld\n", (long long)s->frames[i], (long long)s->values[i]);
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
