/* SPDX-License-Identifier: GPL-2.0 */
/* io.h - x86 port I/O and memory-mapped register access. */
#ifndef ASM_X86_IO_H
#define ASM_X86_IO_H

#include <ekdb/types.h>

static inline void outb(u16 port, u8 v) { __asm__ __volatile__("outb %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outw(u16 port, u16 v) { __asm__ __volatile__("outw %0, %1" :: "a"(v), "Nd"(port)); }
static inline void outl(u16 port, u32 v) { __asm__ __volatile__("outl %0, %1" :: "a"(v), "Nd"(port)); }
static inline u8 inb(u16 port) { u8 v; __asm__ __volatile__("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u16 inw(u16 port) { u16 v; __asm__ __volatile__("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline u32 inl(u16 port) { u32 v; __asm__ __volatile__("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }
/* A write to an unused port: ~1 us delay on real hardware. */
static inline void io_delay(void) { outb(0x80, 0); }

static inline u32 readl(const volatile void *addr) { return *(const volatile u32 *)addr; }
static inline void writel(u32 v, volatile void *addr) { *(volatile u32 *)addr = v; }
static inline u64 readq(const volatile void *addr) { return *(const volatile u64 *)addr; }
static inline void writeq(u64 v, volatile void *addr) { *(volatile u64 *)addr = v; }

#endif
