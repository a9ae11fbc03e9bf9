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

/* sd-bus: the daemon follows logind on the system bus (GesturedSystem/Service/SystemBus.swift). */
#include <systemd/sd-bus.h>

/* An asynchronous method call whose slot belongs to the bus ("floating") and calls `destroy`
 * with `userdata` when it is freed: after the reply (or error, or timeout) was handled, or
 * when the bus is freed with the call still pending. So the Swift side can hand over a
 * retained box and have it released exactly once. */
static inline int gestured_bus_call_async(sd_bus *bus, sd_bus_message *m, sd_bus_message_handler_t callback,
					  sd_bus_destroy_t destroy, void *userdata, uint64_t usec)
{
	sd_bus_slot *slot = NULL;
	int r = sd_bus_call_async(bus, &slot, m, callback, userdata, usec);
	if (r < 0)
		return r;
	sd_bus_slot_set_destroy_callback(slot, destroy);
	sd_bus_slot_set_floating(slot, 1);
	sd_bus_slot_unref(slot);
	return r;
}

/* A match installed asynchronously, its slot floating as above (it lives until the bus is freed). */
static inline int gestured_bus_add_match_async(sd_bus *bus, const char *match, sd_bus_message_handler_t callback,
					       sd_bus_message_handler_t installed, sd_bus_destroy_t destroy, void *userdata)
{
	sd_bus_slot *slot = NULL;
	int r = sd_bus_add_match_async(bus, &slot, match, callback, installed, userdata);
	if (r < 0)
		return r;
	sd_bus_slot_set_destroy_callback(slot, destroy);
	sd_bus_slot_set_floating(slot, 1);
	sd_bus_slot_unref(slot);
	return r;
}

/* Sets a uinput device's phys before UI_DEV_CREATE (UI_SET_PHYS is an _IOW macro). */
static inline int CLinuxInput_uinputSetPhys(int fd, const char *phys)
{
	return ioctl(fd, UI_SET_PHYS, phys);
}
#endif
