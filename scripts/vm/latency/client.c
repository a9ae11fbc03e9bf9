/* A socket client of the gestured daemon: subscribes, and for every gesture
 * message notes the time it was received minus its time_us (the kernel
 * timestamp of the frame the engine reacted to). Ends when the daemon says
 * the device was removed.
 * Usage: latency-client SOCKET [RAWFILE] */
#include <errno.h>
#include <poll.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "latency.h"

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: latency-client SOCKET [RAWFILE]\n");
		return 2;
	}
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	strncpy(addr.sun_path, argv[1], sizeof addr.sun_path - 1);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof addr) < 0) {
		fprintf(stderr, "latency-client: cannot connect to %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	const char *hello = "{\"type\":\"hello\",\"id\":1,\"protocol_version\":1,\"client_name\":\"latency\"}\n"
			    "{\"type\":\"subscribe\",\"id\":2}\n";
	if (write(fd, hello, strlen(hello)) < 0)
		return 1;
	struct samples samples = { 0 };
	static char buffer[1 << 16];
	size_t used = 0;
	int removed = 0;
	while (!removed) {
		ssize_t n = read(fd, buffer + used, sizeof buffer - used - 1);
		int64_t received = now_us();
		if (n <= 0)
			break;
		used += (size_t)n;
		buffer[used] = '\0';
		char *line = buffer, *end;
		while ((end = strchr(line, '\n'))) {
			*end = '\0';
			const char *time = strstr(line, "\"time_us\":");
			if (strstr(line, "\"type\":\"gesture\"") && time)
				add_sample(&samples, strtoll(time + 10, NULL, 10), received);
			if (strstr(line, "\"type\":\"device_removed\""))
				removed = 1;
			line = end + 1;
		}
		used = strlen(line);
		memmove(buffer, line, used);
	}
	save_samples(argc == 3 ? argv[2] : NULL, &samples);
	print_summary("gestured", &samples);
	return 0;
}
