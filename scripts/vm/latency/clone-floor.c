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
 * LATENCY_FLOOR_CALLS=calls: before each write, 256 calls from 256 call sites
 * to 256 small functions (16 KiB of code): what a distinct call site costs a
 * hop once per wake-up under the emulator (clone-guest.sh's "calls" reader).
 * LATENCY_FLOOR_CALLS=pages: 64 such calls, each function on a page of its
 * own: what a code page touched once per wake-up adds ("pages").
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

/* 256 functions, each with its own constant (so that no two are folded into
 * one), 64 bytes apart; 64 more a page apart. */
#define SMALL(h, l) __attribute__((noinline, aligned(64))) static unsigned long s##h##l(unsigned long x) { return x * 3 + 0x##h##l; }
#define PAGED(h, l) __attribute__((noinline, aligned(4096))) static unsigned long p##h##l(unsigned long x) { return x * 5 + 0x##h##l; }
#define ROW(M, h) M(h, 0) M(h, 1) M(h, 2) M(h, 3) M(h, 4) M(h, 5) M(h, 6) M(h, 7) \
	M(h, 8) M(h, 9) M(h, a) M(h, b) M(h, c) M(h, d) M(h, e) M(h, f)
#define ROWS4(M) ROW(M, 0) ROW(M, 1) ROW(M, 2) ROW(M, 3)
#define ROWS16(M) ROWS4(M) ROW(M, 4) ROW(M, 5) ROW(M, 6) ROW(M, 7) ROW(M, 8) ROW(M, 9) \
	ROW(M, a) ROW(M, b) ROW(M, c) ROW(M, d) ROW(M, e) ROW(M, f)
ROWS16(SMALL)
ROWS4(PAGED)
#define CALL_SMALL(h, l) acc = s##h##l(acc);
#define CALL_PAGED(h, l) acc = p##h##l(acc);

/* Each call is its own call site: after a context switch the emulator looks
 * up each distinct call target and return address again. */
static void distinct_calls(int paged)
{
	unsigned long acc = spun;
	if (paged) {
		ROWS4(CALL_PAGED)
	} else {
		ROWS16(CALL_SMALL)
	}
	spun = acc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: latency-clone-floor /dev/input/eventN\n");
		return 2;
	}
	const char *spin_env = getenv("LATENCY_FLOOR_SPIN");
	long spin = spin_env ? atol(spin_env) : 0;
	const char *calls_env = getenv("LATENCY_FLOOR_CALLS");
	int calls = calls_env && strcmp(calls_env, "calls") == 0 ? 1 : calls_env && strcmp(calls_env, "pages") == 0 ? 2 : 0;
	if (calls_env && *calls_env && !calls) {
		fprintf(stderr, "latency-clone-floor: LATENCY_FLOOR_CALLS=%s: expected calls or pages\n", calls_env);
		return 2;
	}
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
		if (calls)
			distinct_calls(calls == 2);
		if (n && write(out, batch, n * sizeof batch[0]) < 0)
			perror("latency-clone-floor: write");
		if (rc == -ENODEV)
			break;
	}
	libevdev_uinput_destroy(clone);
	libevdev_free(dev);
	return 0;
}
