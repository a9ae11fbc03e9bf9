/* The floor of any daemon: a bare libevdev reader that forwards every frame
 * (SYN_REPORT) over a Unix stream socket to a second process, which notes
 * the time it received it minus the frame's kernel timestamp. Two wake-ups
 * and one socket write, nothing else: what a gesture daemon could reach if
 * its own work cost nothing. Ends when the device goes away.
 * Usage: latency-relay /dev/input/eventN [RAWFILE] */
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reader.h"

static int receive(int sock, const char *raw)
{
	struct samples samples = { 0 };
	int64_t stamps[256];
	ssize_t n;
	while ((n = read(sock, stamps, sizeof stamps)) > 0) {
		int64_t received = now_us();
		for (size_t i = 0; i < (size_t)n / sizeof stamps[0]; i++)
			add_sample(&samples, stamps[i], received);
	}
	save_samples(raw, &samples);
	print_summary("relay", &samples);
	return 0;
}

/* Forwards one frame's kernel timestamp to the receiving process. */
static int forward(int64_t stamp, int64_t received, void *sock)
{
	(void)received;
	if (write(*(int *)sock, &stamp, sizeof stamp) != sizeof stamp) {
		perror("latency-relay: write");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-relay /dev/input/eventN [RAWFILE]\n");
		return 2;
	}
	struct libevdev *dev = open_reader("latency-relay", argv[1]);
	if (!dev)
		return 1;
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
	int failed = each_frame(dev, forward, &pair[0]);
	close(pair[0]);
	int status;
	waitpid(child, &status, 0);
	return failed ? 1 : WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
