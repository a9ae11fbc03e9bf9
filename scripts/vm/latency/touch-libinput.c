/* libinput's touch events through its C library (path backend): for every
 * TOUCH_DOWN and TOUCH_MOTION, its x in device units (libinput's millimetres
 * times RESOLUTION, units per mm), so that it can be matched with the frame
 * the player wrote (latency-touch-player), the moment it was received, and
 * the kernel's timestamp of its frame on NODE (for a clone: when the daemon
 * wrote the frame into it). Runs until the device is removed.
 * Usage: latency-touch-libinput NODE RESOLUTION OUT
 *        (OUT: "x received_us stamped_us" lines, CLOCK_MONOTONIC) */
#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
#include <math.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

#include "latency.h"

static int open_restricted(const char *path, int flags, void *data)
{
	(void)data;
	int fd = open(path, flags);
	return fd < 0 ? -errno : fd;
}

static void close_restricted(int fd, void *data)
{
	(void)data;
	close(fd);
}

static const struct libinput_interface interface = { open_restricted, close_restricted };

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: latency-touch-libinput NODE RESOLUTION OUT\n");
		return 2;
	}
	double resolution = atof(argv[2]);
	FILE *out = fopen(argv[3], "a");
	struct libinput *li = libinput_path_create_context(&interface, NULL);
	/* line-buffered: the reader is stopped with a signal once the frames are in */
	if (out)
		setvbuf(out, NULL, _IOLBF, 0);
	if (!out || !li || !libinput_path_add_device(li, argv[1])) {
		fprintf(stderr, "latency-touch-libinput: cannot open %s\n", argv[1]);
		return 1;
	}
	struct pollfd pfd = { .fd = libinput_get_fd(li), .events = POLLIN };
	int removed = 0;
	while (!removed) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		int64_t received = now_us();
		libinput_dispatch(li);
		struct libinput_event *ev;
		while ((ev = libinput_get_event(li))) {
			enum libinput_event_type type = libinput_event_get_type(ev);
			if (type == LIBINPUT_EVENT_TOUCH_DOWN || type == LIBINPUT_EVENT_TOUCH_MOTION) {
				struct libinput_event_touch *t = libinput_event_get_touch_event(ev);
				fprintf(out, "%ld %lld %llu\n", lround(libinput_event_touch_get_x(t) * resolution), (long long)received,
					(unsigned long long)libinput_event_touch_get_time_usec(t));
			}
			if (type == LIBINPUT_EVENT_DEVICE_REMOVED)
				removed = 1;
			libinput_event_destroy(ev);
		}
	}
	fclose(out);
	libinput_unref(li);
	return 0;
}
