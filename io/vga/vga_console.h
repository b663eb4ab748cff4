/* SPDX-License-Identifier: GPL-2.0 */
/*
 * vga_console.h - the screen: the boot framebuffer (or VGA text memory)
 * as a terminal, shared by the printk console (earlyprintk=vga|efi) and
 * the keyboard transport's output side (ekgdboc=kbd).
 */
#ifndef IO_VGA_CONSOLE_H
#define IO_VGA_CONSOLE_H

#include <ekdb/types.h>

#define VGA_SCREEN_ROW_MAX	321	/* bytes vga_screen_row() may need */

struct vga_screen_info {
	const char *kind;		/* "RGBX8", "BGRX8", "bitmask", "VGA text" */
	u32 width, height;		/* pixels (text: columns, rows) */
	u16 cols, rows;
	u32 pixel_scrolls;		/* framebuffer scrolls that moved pixels */
};

/*
 * vga_screen_init - take over the screen the loader described in
 * boot_params.fb.  Idempotent.  0, -EKDB_ENODEV (none handed over) or
 * -EKDB_EINVAL (a format we cannot draw).
 */
int vga_screen_init(void);
bool vga_screen_ready(void);
/* Terminal output into the cell grid; nothing is drawn until vga_screen_sync(). */
void vga_screen_write(const char *s, size_t len);
/* Draw what changed since the last sync. */
void vga_screen_sync(void);
/* The same, unless another CPU is drawing right now (for polling paths). */
void vga_screen_sync_try(void);
/* Show or hide the cursor. */
void vga_screen_cursor(bool on);
/* Framebuffer scrolls copy pixel rows (true) or redraw changed cells (false, default). */
void vga_screen_scroll_by_copy(bool on);
/* Row @y of the grid as text (host-style check from kernel tests), cols + 1 bytes. */
size_t vga_screen_row(u16 y, char *buf, size_t size);
/* Geometry for messages and fbbench; false when the screen is not up. */
bool vga_screen_info(struct vga_screen_info *info);

/*
 * The running kernel's display driver takes the screen over (the GOP
 * console's text goes to its console): vga_screen_hand_over() calls
 * @succ->adopt with the early grid under the screen lock (copy the text
 * there), unregisters the earlyvga printk console and from then on never
 * touches the old framebuffer again: vga_screen_write/sync/cursor are
 * forwarded to @succ (so the early keyboard transport's output keeps
 * going to the screen the user looks at until its own successor comes).
 */
struct textgrid;
struct vga_screen_successor {
	void (*adopt)(const struct textgrid *early);	/* under the screen lock */
	void (*write)(const char *s, size_t len);
	void (*sync)(void);
	void (*sync_try)(void);		/* the same, unless someone is drawing right now */
	void (*cursor)(bool on);
};
void vga_screen_hand_over(const struct vga_screen_successor *succ);
/* The framebuffer has been handed over (the GOP mode may be gone). */
bool vga_screen_handed_over(void);
/* The early grid when the early screen is up (NULL otherwise). */
const struct textgrid *vga_screen_grid(void);

/* earlyprintk=vga / earlyprintk=efi: @opt is what follows "vga," ("" if nothing). */
int early_vga_console_init(const char *opt);

#endif
