#ifndef CLINUXINPUT_SHIM_H
#define CLINUXINPUT_SHIM_H
#include <linux/input.h>
#include <linux/uinput.h>
#include <libevdev/libevdev.h>
#include <libevdev/libevdev-uinput.h>
#include <libudev.h>
#include <mtdev.h>
#include <sys/ioctl.h>
#include <errno.h>
/* the daemon's event loop (GesturedSystem/Service/EventLoop.swift) */
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/timerfd.h>
#include <sys/prctl.h>

/* Names the calling thread (prctl is variadic, which Swift cannot call). */
static inline int gestured_set_thread_name(const char *name)
{
	return prctl(PR_SET_NAME, (unsigned long)name, 0UL, 0UL, 0UL);
}

/* Sets a uinput device's phys before UI_DEV_CREATE (UI_SET_PHYS is an _IOW macro). */
static inline int CLinuxInput_uinputSetPhys(int fd, const char *phys)
{
	return ioctl(fd, UI_SET_PHYS, phys);
}
#endif
