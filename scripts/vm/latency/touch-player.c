/* Plays the E: lines of an evemu recording into an evdev node (write(2) on
 * /dev/input/eventN: the kernel injects and stamps each frame as it is
 * written) with the recording's timing, and notes for every frame the
 * CLOCK_MONOTONIC time just before its SYN_REPORT was written, with the
 * frame's ABS_MT_POSITION_X: the frame's identity for a reader that sees it
 * elsewhere (through gestured's clone of the device).
 * Usage: latency-touch-player NODE RECORDING OUT   (OUT: "x time_us" lines) */
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "latency.h"

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: latency-touch-player NODE RECORDING OUT\n");
		return 2;
	}
	int fd = open(argv[1], O_WRONLY);
	FILE *in = fopen(argv[2], "r");
	FILE *out = fopen(argv[3], "a");
	if (fd < 0 || !in || !out) {
		fprintf(stderr, "latency-touch-player: %s\n", strerror(errno));
		return 1;
	}
	char line[256];
	double first = -1;
	int64_t start = now_us();
	int x = -1;
	while (fgets(line, sizeof line, in)) {
		double t;
		unsigned type, code;
		int value;
		if (sscanf(line, "E: %lf %x %x %d", &t, &type, &code, &value) != 4)
			continue;
		if (first < 0)
			first = t;
		int64_t due = start + (int64_t)((t - first) * 1e6);
		int64_t now = now_us();
		if (due > now)
			usleep((useconds_t)(due - now));
		struct input_event ev = { .type = type, .code = code, .value = value };
		/* the kernel stamps the frame while its SYN_REPORT is written: note the time just
		 * before, so that a reader woken during the write is never ahead of it */
		int64_t written = now_us();
		if (write(fd, &ev, sizeof ev) != sizeof ev) {
			fprintf(stderr, "latency-touch-player: write: %s\n", strerror(errno));
			return 1;
		}
		if (type == EV_ABS && code == ABS_MT_POSITION_X)
			x = value;
		if (type == EV_SYN && code == SYN_REPORT) {
			if (x >= 0)
				fprintf(out, "%d %lld\n", x, (long long)written);
			x = -1;
		}
	}
	fclose(out);
	return 0;
}
