/* SPDX-License-Identifier: GPL-2.0 */
/*
 * i8042.c - polled PS/2 controller access for the early keyboard.
 * Every wait is bounded; port I/O only through asm/io.h.
 */
#include "i8042.h"
#include "scancode.h"
#include <asm/io.h>
#include <ekdb/errno.h>

#define I8042_DATA		0x60
#define I8042_STATUS		0x64
#define I8042_CMD		0x64

#define CMD_READ_CONFIG		0x20
#define CMD_WRITE_CONFIG	0x60
#define CMD_ENABLE_KBD		0xae

#define CFG_KBD_DISABLED	0x10
#define CFG_TRANSLATE		0x40

#define FLUSH_MAX		64	/* a 16-byte FIFO plus whatever arrives meanwhile */
#define WAIT_LOOPS		100000	/* ~100 ms of port reads */

unsigned i8042_flush(void)
{
	unsigned n = 0;

	while (n < FLUSH_MAX && (inb(I8042_STATUS) & I8042_STR_OBF)) {
		(void)inb(I8042_DATA);
		n++;
	}
	return n;
}

static bool wait_input_empty(void)
{
	for (unsigned i = 0; i < WAIT_LOOPS; i++)
		if (!(inb(I8042_STATUS) & I8042_STR_IBF))
			return true;
	return false;
}

static bool wait_output(u8 *v)
{
	for (unsigned i = 0; i < WAIT_LOOPS; i++) {
		if (inb(I8042_STATUS) & I8042_STR_OBF) {
			*v = inb(I8042_DATA);
			return true;
		}
	}
	return false;
}

static bool command(u8 cmd)
{
	if (!wait_input_empty())
		return false;
	outb(I8042_CMD, cmd);
	return true;
}

int i8042_init(u8 *config)
{
	u8 cfg = 0;

	*config = 0;
	if (inb(I8042_STATUS) == 0xff)
		return -EKDB_ENODEV;
	i8042_flush();
	if (!command(CMD_READ_CONFIG) || !wait_output(&cfg))
		return -EKDB_ENODEV;
	*config = cfg;
	if ((cfg & CFG_KBD_DISABLED) || !(cfg & CFG_TRANSLATE)) {
		cfg = (u8)((cfg & ~CFG_KBD_DISABLED) | CFG_TRANSLATE);
		if (command(CMD_WRITE_CONFIG) && wait_input_empty())
			outb(I8042_DATA, cfg);
	}
	command(CMD_ENABLE_KBD);
	wait_input_empty();
	i8042_flush();
	return 0;
}

#define CFG_KBD_INT		0x01

bool i8042_kbd_irq(bool on)
{
	u8 cfg;

	if (!command(CMD_READ_CONFIG) || !wait_output(&cfg))
		return false;
	cfg = (u8)(on ? cfg | CFG_KBD_INT : cfg & ~CFG_KBD_INT);
	if (!command(CMD_WRITE_CONFIG) || !wait_input_empty())
		return false;
	outb(I8042_DATA, cfg);
	return wait_input_empty();
}

bool i8042_kbd_write(u8 byte)
{
	if (!wait_input_empty())
		return false;
	outb(I8042_DATA, byte);
	return true;
}

bool i8042_read(u8 *status, u8 *data)
{
	u8 st = inb(I8042_STATUS);

	if (!(st & I8042_STR_OBF) || st == 0xff)
		return false;
	*status = st;
	*data = inb(I8042_DATA);
	return true;
}
