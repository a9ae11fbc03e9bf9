/* libinput's gesture events through its C library (path backend): for every
 * GESTURE_* event, the time it was received minus the event's time, which
 * libinput takes from the kernel frame it reacted to. Runs until the device
 * is removed.
 * Usage: latency-libinput /dev/input/eventN [RAWFILE] */
#include <errno.h>
#include <fcntl.h>
#include <libinput.h>
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
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-libinput /dev/input/eventN [RAWFILE]\n");
		return 2;
	}
	struct libinput *li = libinput_path_create_context(&interface, NULL);
	if (!li || !libinput_path_add_device(li, argv[1])) {
		fprintf(stderr, "latency-libinput: cannot open %s\n", argv[1]);
		return 1;
	}
	struct samples samples = { 0 };
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
			if (type >= LIBINPUT_EVENT_GESTURE_SWIPE_BEGIN && type <= LIBINPUT_EVENT_GESTURE_HOLD_END) {
				struct libinput_event_gesture *g = libinput_event_get_gesture_event(ev);
				add_sample(&samples, (int64_t)libinput_event_gesture_get_time_usec(g), received);
			}
			if (type == LIBINPUT_EVENT_DEVICE_REMOVED)
				removed = 1;
			libinput_event_destroy(ev);
		}
	}
	save_samples(argc == 3 ? argv[2] : NULL, &samples);
	print_summary("libinput", &samples);
	libinput_unref(li);
	return 0;
}
