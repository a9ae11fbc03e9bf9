/* The floor of the clone's hop: a bare libevdev reader that grabs a
 * touchscreen, makes its uinput clone (libevdev_uinput_create_from_device,
 * as gestured does) and writes every event it reads into the clone at once,
 * one write(2) a read. Two wake-ups and one uinput write, nothing else: what
 * gestured's clone (Grab=yes) could reach if its own work cost nothing.
 * Prints the clone's node on stdout once it exists; ends when the source
 * goes away or on SIGTERM.
 * LATENCY_FLOOR_SPIN=N: before each write, N turns of a loop of 6
 * instructions (a load, an add and a store of a volatile, the count): a
 * calibration, what hot instructions on the hop cost under the emulator
 * (clone-guest.sh's "spin" reader).
 * Usage: latency-clone-floor /dev/input/eventN */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev-uinput.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static volatile unsigned long spun;

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: latency-clone-floor /dev/input/eventN\n");
		return 2;
	}
	const char *spin_env = getenv("LATENCY_FLOOR_SPIN");
	long spin = spin_env ? atol(spin_env) : 0;
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	struct libevdev *dev = NULL;
	struct libevdev_uinput *clone = NULL;
	if (fd < 0 || libevdev_new_from_fd(fd, &dev) < 0) {
		fprintf(stderr, "latency-clone-floor: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int rc = libevdev_uinput_create_from_device(dev, LIBEVDEV_UINPUT_OPEN_MANAGED, &clone);
	if (rc < 0 || libevdev_grab(dev, LIBEVDEV_GRAB) < 0) {
		fprintf(stderr, "latency-clone-floor: cannot clone or grab %s: %s\n", argv[1], strerror(rc < 0 ? -rc : errno));
		return 1;
	}
	printf("%s\n", libevdev_uinput_get_devnode(clone));
	fflush(stdout);
	int out = libevdev_uinput_get_fd(clone);
	struct input_event batch[256];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		size_t n = 0;
		struct input_event ev;
		while ((rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev)) >= 0) {
			if (rc == LIBEVDEV_READ_STATUS_SYNC)
				continue;
			batch[n++] = ev;
			if (n == sizeof batch / sizeof batch[0]) {
				if (write(out, batch, sizeof batch) < 0)
					perror("latency-clone-floor: write");
				n = 0;
			}
		}
		for (long i = 0; i < spin; i++)
			spun += (unsigned long)i;
		if (n && write(out, batch, n * sizeof batch[0]) < 0)
			perror("latency-clone-floor: write");
		if (rc == -ENODEV)
			break;
	}
	libevdev_uinput_destroy(clone);
	libevdev_free(dev);
	return 0;
}
