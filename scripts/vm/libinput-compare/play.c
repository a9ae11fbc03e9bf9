/*
 * play: writes an evemu recording's E: lines onto an evdev node, each frame at
 * its absolute deadline, and reports how late each touch burst went out.
 *
 * Usage: play [-s STALL_MS] [-r RETRIES] NODE RECORDING REPORT
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
 * A stall of the whole guest (the host not running it) inside a burst cannot
 * be prevented from inside; what the readers got is then not the input that
 * was designed. The player reads every frame back from the node it writes
 * (CLOCK_MONOTONIC, EVIOCSCLOCKID): the kernel's timestamps, the same events
 * and times libinput and gestured read. A burst whose frames, measured from
 * its first one, stray from the recording's times by more than STALL_MS
 * (default 25 ms) in the kernel's timestamps is played again, after its
 * recorded pause, up to RETRIES times (default 3); the readers see each
 * attempt as a burst of its own, and compare.awk judges the last one (and
 * reports a line whose last attempt still strayed as unmeasured, "stalled").
 * A segment is a pressing frame and every frame up to the next pressing one.
 * REPORT gets one line first,
 *   player sched <fifo|other> mlock <ok|failed> stall_ms B retries R
 * then per attempt, numbered from 1 in the order the kernel got them (as
 * compare.awk numbers the kernel's bursts):
 *   burst K frames N start_late_ms S max_late_ms M late_frames L plays J attempt A deviation_ms D
 * where start_late_ms is how late its first frame was against the schedule
 * before the shift, max_late_ms the latest of its frames after it,
 * late_frames how many of its frames went out more than 2 ms late (the
 * player's own clock), J the recording's burst it plays (from 1), A which
 * attempt at it (from 1), D its deviation in the kernel's timestamps; and
 * last
 *   replayed P stalled Q of J
 * (P bursts were played more than once; Q still strayed at their last attempt).
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
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

struct frame {
	long long at_us; /* the recording's time of its first event */
	int first, count; /* events[first ..< first + count] */
	int presses; /* 1 when the frame presses BTN_TOUCH */
	int slot; /* the ABS_MT_SLOT in effect when the frame begins (0 before any) */
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

/* What the player knows while it plays. */
struct player {
	int fd;
	const char *node;
	const struct frame *frames;
	const struct input_event *events;
	long long origin, base, shift, last_write;
	long long *kernel_us; /* per frame: the kernel's time of its SYN_REPORT as read back, or -1 */
	int dropped; /* SYN_DROPPED read back since the segment began */
	int multitouch; /* the recording selects slots (ABS_MT_SLOT) */
};

/* How one attempt at a segment went out (the report's burst line). */
struct segment {
	int frames, late_frames;
	long long start_late, max_late;
};

/* Reads back what the kernel has passed on since the last call; the frame's
 * time is that of its SYN_REPORT (the kernel stamps a frame's events at once). */
static int read_back(struct player *p, size_t i)
{
	struct input_event buffer[64];
	for (;;) {
		ssize_t got = read(p->fd, buffer, sizeof buffer);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0 && errno == EAGAIN)
			return 0;
		if (got < 0) {
			fprintf(stderr, "play: %s: read: %s\n", p->node, strerror(errno));
			return -1;
		}
		if (got == 0)
			return 0;
		for (size_t k = 0; k < (size_t)got / sizeof *buffer; k++) {
			if (buffer[k].type != EV_SYN)
				continue;
			if (buffer[k].code == SYN_DROPPED)
				p->dropped = 1;
			else if (buffer[k].code == SYN_REPORT)
				p->kernel_us[i] = (long long)buffer[k].input_event_sec * 1000000 + buffer[k].input_event_usec;
		}
	}
}

/* Writes frame I at its deadline (see the top of this file) and reads it back. */
static int play_frame(struct player *p, size_t i, struct segment *s)
{
	const struct frame *f = &p->frames[i];
	long long deadline = p->origin + p->shift + (f->at_us - p->base);
	long long gap = i > 0 ? f->at_us - p->frames[i - 1].at_us : 0;
	if (f->presses) {
		/* The pause before a burst stays whole: a burst that ran late
		 * (caught up at twice its pace), or an attempt replayed, does
		 * not shorten it. */
		long long pause = i > 0 ? p->last_write + gap : 0;
		if (pause > deadline) {
			p->shift += pause - deadline;
			deadline = pause;
		}
		sleep_until(deadline);
		long long t = now_us();
		long long start_late = t > deadline ? t - deadline : 0;
		p->shift += start_late;
		deadline += start_late;
		if (s)
			s->start_late = start_late;
	} else {
		long long spaced = i > 0 ? p->last_write + gap / 2 : 0;
		sleep_until(spaced > deadline ? spaced : deadline);
	}
	ssize_t size = (ssize_t)(f->count * sizeof *p->events);
	p->kernel_us[i] = -1;
	if (write(p->fd, &p->events[f->first], (size_t)size) != size) {
		fprintf(stderr, "play: %s: write: %s\n", p->node, strerror(errno));
		return -1;
	}
	p->last_write = now_us();
	if (read_back(p, i) < 0)
		return -1;
	long long late = p->last_write - deadline;
	if (s) {
		s->frames++;
		if (late > s->max_late)
			s->max_late = late;
		if (late > 2000)
			s->late_frames++;
	}
	return 0;
}

/* Plays frames [first, end): one attempt at a burst. A recording names
 * ABS_MT_SLOT only when the slot changes, so a burst's first frame writes into
 * whatever slot the one before it left selected: for a burst played again,
 * that is where its own last attempt ended, not where the recording left it
 * (a replayed three-finger swipe's first finger went into the third finger's
 * slot, and libevdev dropped the third finger's tracking ID as a second one
 * in that slot: both readers saw two fingers). So every attempt first selects
 * the slot the recording had then: the kernel takes ABS_MT_SLOT as state and
 * passes nothing on until a value changes, so no reader sees this write. */
static int play_segment(struct player *p, size_t first, size_t end, struct segment *s)
{
	p->dropped = 0;
	if (p->multitouch && first < end) {
		struct input_event slot = { .type = EV_ABS, .code = ABS_MT_SLOT, .value = p->frames[first].slot };
		if (write(p->fd, &slot, sizeof slot) != (ssize_t)sizeof slot) {
			fprintf(stderr, "play: %s: write: %s\n", p->node, strerror(errno));
			return -1;
		}
	}
	for (size_t i = first; i < end; i++)
		if (play_frame(p, i, s) < 0)
			return -1;
	return 0;
}

/* How far the kernel's times of frames [first, end), as read back, stray from
 * the recording's, each measured from the segment's first frame: the most,
 * in µs. A stall of the whole guest inside a burst shows here whatever the
 * player thought it did; a segment whose read-back lost events
 * (SYN_DROPPED) cannot be measured and counts as stalled. */
static long long kernel_deviation(const struct player *p, size_t first, size_t end)
{
	if (p->dropped)
		return 1000000000LL;
	long long worst = 0, k0 = -1, s0 = 0;
	for (size_t i = first; i < end; i++) {
		if (p->kernel_us[i] < 0)
			continue; /* every value repeated: the kernel passed nothing on */
		if (k0 < 0) {
			k0 = p->kernel_us[i];
			s0 = p->frames[i].at_us;
			continue;
		}
		long long d = (p->kernel_us[i] - k0) - (p->frames[i].at_us - s0);
		if (d < 0)
			d = -d;
		if (d > worst)
			worst = d;
	}
	return worst;
}

int main(int argc, char **argv)
{
	long long stall_us = 25000;
	int retries = 3, opt;
	while ((opt = getopt(argc, argv, "s:r:")) != -1) {
		switch (opt) {
		case 's':
			stall_us = (long long)(atof(optarg) * 1000);
			break;
		case 'r':
			retries = atoi(optarg);
			break;
		default:
			fprintf(stderr, "usage: play [-s STALL_MS] [-r RETRIES] NODE RECORDING REPORT\n");
			return 2;
		}
	}
	if (argc - optind != 3 || stall_us <= 0 || retries < 0) {
		fprintf(stderr, "usage: play [-s STALL_MS] [-r RETRIES] NODE RECORDING REPORT\n");
		return 2;
	}
	const char *node = argv[optind], *path = argv[optind + 1];
	FILE *in = fopen(path, "r");
	if (!in) {
		fprintf(stderr, "play: %s: %s\n", path, strerror(errno));
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
	int lineno = 0, open_frame = 0, slot = 0, multitouch = 0;
	while (fgets(line, sizeof line, in)) {
		lineno++;
		if (strncmp(line, "E:", 2) != 0)
			continue;
		long long sec, usec;
		unsigned type, code;
		int value;
		if (sscanf(line + 2, " %lld.%lld %x %x %d", &sec, &usec, &type, &code, &value) != 5) {
			fprintf(stderr, "play: %s:%d: not an event line (E: SEC.USEC TYPE CODE VALUE)\n", path, lineno);
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
			frames[nf] = (struct frame){ .at_us = sec * 1000000 + usec, .first = (int)n, .slot = slot };
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
		if (type == EV_ABS && code == ABS_MT_SLOT) {
			slot = value;
			multitouch = 1;
		}
		if (type == EV_SYN && code == SYN_REPORT) {
			nf++;
			open_frame = 0;
		}
	}
	fclose(in);
	if (open_frame)
		nf++; /* events after the last SYN_REPORT: written as they are */

	FILE *report = fopen(argv[optind + 2], "w");
	if (!report) {
		fprintf(stderr, "play: %s: %s\n", argv[optind + 2], strerror(errno));
		return 1;
	}
	/* Read and write: what is written comes back on this descriptor with the
	 * kernel's timestamps (CLOCK_MONOTONIC, as the player's deadlines), the
	 * same events and times every reader of the node gets. */
	int fd = open(node, O_RDWR | O_NONBLOCK);
	if (fd < 0) {
		fprintf(stderr, "play: %s: %s\n", node, strerror(errno));
		return 1;
	}
	int clock = CLOCK_MONOTONIC;
	if (ioctl(fd, EVIOCSCLOCKID, &clock) < 0) {
		fprintf(stderr, "play: %s: EVIOCSCLOCKID: %s\n", node, strerror(errno));
		return 1;
	}
	int locked = mlockall(MCL_CURRENT | MCL_FUTURE) == 0;
	struct sched_param param = { .sched_priority = 50 };
	/* GESTURED_PLAY_FIFO=0: the player competes with the readers as any
	 * process does (a reader that falls behind then slows it down). */
	const char *want_fifo = getenv("GESTURED_PLAY_FIFO");
	int fifo = !(want_fifo && strcmp(want_fifo, "0") == 0) && sched_setscheduler(0, SCHED_FIFO, &param) == 0;
	fprintf(report, "player sched %s mlock %s stall_ms %.1f retries %d\n", fifo ? "fifo" : "other",
		locked ? "ok" : "failed", stall_us / 1000.0, retries);

	struct player p = { .fd = fd, .node = node, .frames = frames, .events = events, .multitouch = multitouch,
		.origin = now_us() + 20000, .base = nf ? frames[0].at_us : 0,
		.kernel_us = calloc(nf ? nf : 1, sizeof(long long)) };
	if (!p.kernel_us) {
		fprintf(stderr, "play: out of memory\n");
		return 1;
	}
	/* Frames before the first touch, then each segment: a pressing frame and
	 * every frame up to the next pressing one. */
	size_t i = 0;
	while (i < nf && !frames[i].presses) {
		if (play_frame(&p, i, NULL) < 0)
			return 1;
		i++;
	}
	int kernel_burst = 0, script_burst = 0, replayed = 0, stalled = 0;
	while (i < nf) {
		size_t end = i + 1;
		while (end < nf && !frames[end].presses)
			end++;
		script_burst++;
		for (int attempt = 1;; attempt++) {
			kernel_burst++;
			struct segment s = { 0 };
			if (play_segment(&p, i, end, &s) < 0)
				return 1;
			long long deviation = kernel_deviation(&p, i, end);
			fprintf(report, "burst %d frames %d start_late_ms %.1f max_late_ms %.1f late_frames %d "
				"plays %d attempt %d deviation_ms %.1f\n",
				kernel_burst, s.frames, s.start_late / 1000.0, s.max_late / 1000.0, s.late_frames,
				script_burst, attempt, deviation / 1000.0);
			fflush(report);
			if (deviation <= stall_us)
				break;
			if (attempt > retries) {
				stalled++;
				break;
			}
			if (attempt == 1)
				replayed++;
		}
		i = end;
	}
	fprintf(report, "replayed %d stalled %d of %d\n", replayed, stalled, script_burst);
	fclose(report);
	close(fd);
	return 0;
}
