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
#endif
