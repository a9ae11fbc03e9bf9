/* The bare libevdev reading loop shared by the floor and the relay
 * (scripts/vm/latency/): open a node, then report every frame (SYN_REPORT)
 * with its kernel timestamp and the moment the reader woke up for it. */
#ifndef GESTURED_LATENCY_READER_H
#define GESTURED_LATENCY_READER_H

#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "latency.h"

/* Opens NODE for reading with events stamped on CLOCK_MONOTONIC (evdev uses
 * CLOCK_REALTIME unless asked); NULL after a message naming PROGRAM and NODE. */
static inline struct libevdev *open_reader(const char *program, const char *node)
{
	int fd = open(node, O_RDONLY | O_NONBLOCK);
	struct libevdev *dev = NULL;
	if (fd < 0 || libevdev_new_from_fd(fd, &dev) < 0) {
		fprintf(stderr, "%s: cannot open %s: %s\n", program, node, strerror(errno));
		return NULL;
	}
	libevdev_set_clock_id(dev, CLOCK_MONOTONIC);
	return dev;
}

/* Calls FRAME(kernel time µs, wake-up time µs, CONTEXT) for every frame until
 * the device goes away; returns what FRAME last returned (non-zero stops). */
static inline int each_frame(struct libevdev *dev, int (*frame)(int64_t, int64_t, void *), void *context)
{
	struct pollfd pfd = { .fd = libevdev_get_fd(dev), .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			return 1;
		int64_t received = now_us();
		struct input_event ev;
		int rc;
		while ((rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev)) >= 0) {
			if (rc == LIBEVDEV_READ_STATUS_SYNC || ev.type != EV_SYN || ev.code != SYN_REPORT)
				continue;
			int stop = frame((int64_t)ev.input_event_sec * 1000000 + ev.input_event_usec, received, context);
			if (stop)
				return stop;
		}
		if (rc == -ENODEV)
			return 0;
	}
}

#endif
