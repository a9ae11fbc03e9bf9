/*
 * play: writes an evemu recording's E: lines onto an evdev node, each frame at
 * its absolute deadline, and reports how late each touch burst went out.
 *
 * Usage: play NODE RECORDING REPORT
 *
 * Why not evemu-play: it sleeps a relative time between frames, so under the
 * guest's software emulation every late wake-up delays all the frames after
 * it, and a 0.6 s pinch reached the kernel stretched to 1.8 s (docs/
 * evaluation.md, "libinput side by side: the Synaptics T440"). Here:
 *   - every frame has an absolute deadline on CLOCK_MONOTONIC
 *     (clock_nanosleep TIMER_ABSTIME): lateness never accumulates;
 *   - a burst (a frame pressing BTN_TOUCH) that starts late moves its own
 *     deadlines by that much, so its inner timing is kept whole and the gap
 *     to the previous burst absorbs the delay; the pause before a burst is
 *     never shorter than recorded (a burst that ran late does not eat into
 *     the next one's pause: a tap 0.3 s after a scroll is no tap to gestured); a frame late inside a burst
 *     goes out as soon as it may, the frames after it keep their deadlines,
 *     but a late frame never follows the one before sooner than half their
 *     recorded interval: after a stall of the whole guest the burst catches
 *     up at twice its pace, never all at once, so the readers (which the
 *     stall held up as well) can drain their evdev buffers between frames
 *     instead of losing them to SYN_DROPPED;
 *   - the player runs SCHED_FIFO and mlockall()ed when the system allows it
 *     (not with GESTURED_PLAY_FIFO=0), so the readers it is measured against
 *     cannot delay it in the guest;
 *   - each frame (its events and SYN_REPORT) is one write(2), so the kernel
 *     stamps the whole frame at one instant.
 * REPORT gets one line first, `player sched <fifo|other> mlock <ok|failed>`,
 * then per burst (numbered from 1 as compare.awk numbers them):
 *   burst K frames N start_late_ms S max_late_ms M late_frames L
 * where start_late_ms is how late its first frame was against the schedule
 * before the shift, max_late_ms the latest of its frames after it, and
 * late_frames how many of its frames went out more than 2 ms late.
 * Exit status: 0, or 1 with a message naming the file and line (bad input),
 * or the node (cannot write).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/input.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct frame {
	long long at_us; /* the recording's time of its first event */
	int first, count; /* events[first ..< first + count] */
	int presses; /* 1 when the frame presses BTN_TOUCH */
};

static long long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void sleep_until(long long us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (us % 1000000) * 1000 };
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: play NODE RECORDING REPORT\n");
		return 2;
	}
	FILE *in = fopen(argv[2], "r");
	if (!in) {
		fprintf(stderr, "play: %s: %s\n", argv[2], strerror(errno));
		return 1;
	}
	size_t cap = 4096, n = 0, fcap = 1024, nf = 0;
	struct input_event *events = malloc(cap * sizeof *events);
	struct frame *frames = malloc(fcap * sizeof *frames);
	if (!events || !frames) {
		fprintf(stderr, "play: out of memory\n");
		return 1;
	}
	char line[512];
	int lineno = 0, open_frame = 0;
	while (fgets(line, sizeof line, in)) {
		lineno++;
		if (strncmp(line, "E:", 2) != 0)
			continue;
		long long sec, usec;
		unsigned type, code;
		int value;
		if (sscanf(line + 2, " %lld.%lld %x %x %d", &sec, &usec, &type, &code, &value) != 5) {
			fprintf(stderr, "play: %s:%d: not an event line (E: SEC.USEC TYPE CODE VALUE)\n", argv[2], lineno);
			return 1;
		}
		if (n == cap && !(events = realloc(events, (cap *= 2) * sizeof *events))) {
			fprintf(stderr, "play: out of memory\n");
			return 1;
		}
		if (!open_frame) {
			if (nf == fcap && !(frames = realloc(frames, (fcap *= 2) * sizeof *frames))) {
				fprintf(stderr, "play: out of memory\n");
				return 1;
			}
			frames[nf] = (struct frame){ .at_us = sec * 1000000 + usec, .first = (int)n };
			open_frame = 1;
		}
		memset(&events[n], 0, sizeof events[n]);
		events[n].type = (unsigned short)type;
		events[n].code = (unsigned short)code;
		events[n].value = value;
		n++;
		frames[nf].count++;
		if (type == EV_KEY && code == BTN_TOUCH && value == 1)
			frames[nf].presses = 1;
		if (type == EV_SYN && code == SYN_REPORT) {
			nf++;
			open_frame = 0;
		}
	}
	fclose(in);
	if (open_frame)
		nf++; /* events after the last SYN_REPORT: written as they are */

	FILE *report = fopen(argv[3], "w");
	if (!report) {
		fprintf(stderr, "play: %s: %s\n", argv[3], strerror(errno));
		return 1;
	}
	int fd = open(argv[1], O_WRONLY);
	if (fd < 0) {
		fprintf(stderr, "play: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	int locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
	struct sched_param param = { .sched_priority = 50 };
	/* GESTURED_PLAY_FIFO=0: the player competes with the readers as any
	 * process does (a reader that falls behind then slows it down). */
	const char *want_fifo = getenv("GESTURED_PLAY_FIFO");
	int fifo = !(want_fifo && strcmp(want_fifo, "0") == 0) && sched_setscheduler(0, SCHED_FIFO, &param) == 0;
	fprintf(report, "player sched %s mlock %s\n", fifo ? "fifo" : "other", locked ? "ok" : "failed");

	long long origin = now_us() + 20000, shift = 0, last_write = 0;
	long long base = nf ? frames[0].at_us : 0;
	int burst = 0, burst_frames = 0, late_frames = 0;
	long long start_late = 0, max_late = 0;
	for (size_t i = 0; i < nf; i++) {
		long long deadline = origin + shift + (frames[i].at_us - base);
		if (frames[i].presses) {
			/* The pause before a burst stays whole: a burst that ran late
			 * (caught up at twice its pace) does not shorten it. */
			long long pause = i > 0 ? last_write + (frames[i].at_us - frames[i - 1].at_us) : 0;
			if (pause > deadline) {
				shift += pause - deadline;
				deadline = pause;
			}
			if (burst)
				fprintf(report, "burst %d frames %d start_late_ms %.1f max_late_ms %.1f late_frames %d\n",
					burst, burst_frames, start_late / 1000.0, max_late / 1000.0, late_frames);
			burst++;
			burst_frames = late_frames = 0;
			max_late = 0;
			sleep_until(deadline);
			long long t = now_us();
			start_late = t > deadline ? t - deadline : 0;
			shift += start_late;
			deadline += start_late;
		} else {
			long long spaced = i > 0 ? last_write + (frames[i].at_us - frames[i - 1].at_us) / 2 : 0;
			sleep_until(spaced > deadline ? spaced : deadline);
		}
		ssize_t size = (ssize_t)(frames[i].count * sizeof *events);
		if (write(fd, &events[frames[i].first], (size_t)size) != size) {
			fprintf(stderr, "play: %s: write: %s\n", argv[1], strerror(errno));
			return 1;
		}
		last_write = now_us();
		long long late = last_write - deadline;
		if (burst) {
			burst_frames++;
			if (late > max_late)
				max_late = late;
			if (late > 2000)
				late_frames++;
		}
	}
	if (burst)
		fprintf(report, "burst %d frames %d start_late_ms %.1f max_late_ms %.1f late_frames %d\n",
			burst, burst_frames, start_late / 1000.0, max_late / 1000.0, late_frames);
	fclose(report);
	close(fd);
	return 0;
}
