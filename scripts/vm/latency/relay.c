/* The floor of any daemon: a bare libevdev reader that forwards every frame
 * (SYN_REPORT) over a Unix stream socket to a second process, which notes
 * the time it received it minus the frame's kernel timestamp. Two wake-ups
 * and one socket write, nothing else: what a gesture daemon could reach if
 * its own work cost nothing. Ends when the device goes away.
 * Usage: latency-relay /dev/input/eventN [RAWFILE] */
#include <errno.h>
#include <fcntl.h>
#include <libevdev/libevdev.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "latency.h"

static int receive(int sock, const char *raw)
{
	struct samples samples = { 0 };
	int64_t stamps[256];
	ssize_t n;
	while ((n = read(sock, stamps, sizeof stamps)) > 0) {
		int64_t received = now_us();
		for (size_t i = 0; i < (size_t)n / sizeof stamps[0]; i++)
			add_sample(&samples, received - stamps[i]);
	}
	save_samples(raw, &samples);
	print_summary("relay", &samples);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-relay /dev/input/eventN [RAWFILE]\n");
		return 2;
	}
	int fd = open(argv[1], O_RDONLY | O_NONBLOCK);
	struct libevdev *dev = NULL;
	if (fd < 0 || libevdev_new_from_fd(fd, &dev) < 0) {
		fprintf(stderr, "latency-relay: cannot open %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	libevdev_set_clock_id(dev, CLOCK_MONOTONIC);
	int pair[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) < 0) {
		perror("latency-relay: socketpair");
		return 1;
	}
	pid_t child = fork();
	if (child < 0) {
		perror("latency-relay: fork");
		return 1;
	}
	if (child == 0) {
		close(pair[0]);
		return receive(pair[1], argc == 3 ? argv[2] : NULL);
	}
	close(pair[1]);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	for (;;) {
		if (poll(&pfd, 1, -1) < 0 && errno != EINTR)
			break;
		struct input_event ev;
		int rc;
		while ((rc = libevdev_next_event(dev, LIBEVDEV_READ_FLAG_NORMAL, &ev)) >= 0) {
			if (rc == LIBEVDEV_READ_STATUS_SYNC || ev.type != EV_SYN || ev.code != SYN_REPORT)
				continue;
			int64_t stamp = (int64_t)ev.input_event_sec * 1000000 + ev.input_event_usec;
			if (write(pair[0], &stamp, sizeof stamp) != sizeof stamp) {
				perror("latency-relay: write");
				return 1;
			}
		}
		if (rc == -ENODEV)
			break;
	}
	close(pair[0]);
	int status;
	waitpid(child, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
