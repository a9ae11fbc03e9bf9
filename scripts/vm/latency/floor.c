/* The latency floor: a bare libevdev reader. For every frame (SYN_REPORT)
 * it notes the time it received it minus the frame's kernel timestamp
 * (CLOCK_MONOTONIC), until the device goes away.
 * Usage: latency-floor /dev/input/eventN [RAWFILE] */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "latency.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-floor /dev/input/eventN [RAWFILE]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	struct libevdev *dev = NULL;
	if (fd < 0 || libevdev_new_from_fd(fd, &dev) < 0) {
		fprintf(stderr, "latency-floor: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	/* evdev stamps events with CLOCK_REALTIME unless asked */
	libevdev_set_clock_id(dev, CLOCK_MONOTONIC);
	struct samples samples = { 0 };
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		struct input_event ev;
		int rc;
		int64_t received = now_us();
		while ((rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev)) >= 0) {
			if (rc == LIBEVDEV_READ_STATUS_SYNC)
				continue;
			if (ev.type == EV_SYN && ev.code == SYN_REPORT)
				add_sample(&samples, received - ((int64_t)ev.input_event_sec * 1000000 + ev.input_event_usec));
		}
		if (rc == -ENODEV)
			break;
	}
	save_samples(argc == 3 ? argv[2] : NULL, &samples);
	print_summary("floor", &samples);
	return 0;
}
