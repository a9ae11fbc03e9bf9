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
#include <stdint.h>
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

/* sd-bus: the daemon follows logind on the system bus (GesturedSystem/Service/SDBusConnection.swift). */
#include <systemd/sd-bus.h>

/* An asynchronous method call whose slot belongs to the bus ("floating") and calls `destroy`
 * with `userdata` when it is freed: after the reply (or error, or timeout) was handled, or
 * when the bus is freed with the call still pending. So the Swift side hands over a retained
 * box and has it released exactly once. */
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

/* A match installed asynchronously (`AddMatch` goes out without waiting; a rule the bus refuses
 * fails the connection), its slot floating as above: it lives until the bus is freed. */
static inline int gestured_bus_add_match_async(sd_bus *bus, const char *match, sd_bus_message_handler_t callback,
					       sd_bus_destroy_t destroy, void *userdata)
{
	sd_bus_slot *slot = NULL;
	int r = sd_bus_add_match_async(bus, &slot, match, callback, NULL, userdata);
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

/* The device's current state straight from the kernel, for the daemon's own reads
 * (GesturedSystem/EvdevDevice.swift): EVIOCGMTSLOTS, EVIOCGKEY and EVIOCGABS are macros
 * that compute their request from a length or a code, which Swift cannot call.
 *
 * gestured_evdev_mt_slots: `request[0]` is the ABS_MT_* code asked for; the kernel fills
 * `request[1 ... slots]` with that value of every slot (struct input_mt_request_layout). */
static inline int gestured_evdev_mt_slots(int fd, int32_t *request, unsigned int slots)
{
	return ioctl(fd, EVIOCGMTSLOTS((slots + 1) * sizeof(int32_t)), request);
}

/* The bitmask of keys held now (EVIOCGKEY), `length` bytes. */
static inline int gestured_evdev_keys(int fd, unsigned char *bits, unsigned int length)
{
	return ioctl(fd, EVIOCGKEY(length), bits);
}

/* One absolute axis's value and range now (EVIOCGABS). */
static inline int gestured_evdev_abs(int fd, unsigned int code, struct input_absinfo *info)
{
	return ioctl(fd, EVIOCGABS(code), info);
}
#endif
