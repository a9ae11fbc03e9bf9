/* The latency floor: a bare libevdev reader. For every frame (SYN_REPORT)
 * it notes the time it received it minus the frame's kernel timestamp
 * (CLOCK_MONOTONIC), until the device goes away.
 * Usage: latency-floor /dev/input/eventN [RAWFILE] */
#include "reader.h"

static int note(int64_t stamp, int64_t received, void *samples)
{
	add_sample(samples, stamp, received);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-floor /dev/input/eventN [RAWFILE]\n");
		return 2;
	}
	struct libevdev *dev = open_reader("latency-floor", argv[1]);
	if (!dev)
		return 1;
	struct samples samples = { 0 };
	each_frame(dev, note, &samples);
	save_samples(argc == 3 ? argv[2] : NULL, &samples);
	print_summary("floor", &samples);
	return 0;
}
