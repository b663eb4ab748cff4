/* SPDX-License-Identifier: GPL-2.0 */
/* types.h - fixed-width types and small helpers shared by kernel and host builds. */
#ifndef EKDB_TYPES_H
#define EKDB_TYPES_H

#ifdef _LINUX_TYPES_H
/*
 * Linux's side of its port (kernel/debug/ekdb/ekdb_linux.c, docs/linux.md)
 * includes the public headers after Linux's own: Linux's types (the same
 * sizes: the ABI is one) and helpers serve.  The debugger's folders never
 * see this branch: they are compiled without Linux's headers.
 */
#include <linux/stddef.h>
#include <linux/stdarg.h>
#include <linux/kernel.h>
#define ALIGN_UP(x, a)	ALIGN((x), (a))
#ifndef MIN			/* Linux 6.1.y has them (minmax.h) */
#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))
#endif
#else
#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>
#include <stdarg.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#define ALIGN_UP(x, a)	(((x) + ((a) - 1)) & ~((__typeof__(x))(a) - 1))
#define ALIGN_DOWN(x, a) ((x) & ~((__typeof__(x))(a) - 1))
#define MIN(a, b)	((a) < (b) ? (a) : (b))
#define MAX(a, b)	((a) > (b) ? (a) : (b))

#define __packed	__attribute__((packed))
#define __aligned(n)	__attribute__((aligned(n)))
#define __noreturn	__attribute__((noreturn))
#define __used		__attribute__((used))
#define __section(s)	__attribute__((section(s)))
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#define __noinline	__attribute__((noinline))
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)

#define container_of(ptr, type, member) \
	((type *)((char *)(ptr) - offsetof(type, member)))

#define READ_ONCE(x)	(*(const volatile __typeof__(x) *)&(x))
#define WRITE_ONCE(x, v) (*(volatile __typeof__(x) *)&(x) = (v))
#define barrier()	__asm__ __volatile__("" ::: "memory")
#endif /* _LINUX_TYPES_H */


/*
 * EKDB_API_BEGIN / EKDB_API_END - around the declarations of the public
 * headers (<ekdb/ekdb.h>, <ekdb/port.h>): a
 * host that compiles the debugger with -fvisibility=hidden and localizes
 * the hidden symbols of its one relocatable object (Linux: linux/ekdb.kbuild)
 * is left with exactly these as global names (docs/porting.md, "Names").
 */
#define EKDB_API_BEGIN	_Pragma("GCC visibility push(default)")
#define EKDB_API_END	_Pragma("GCC visibility pop")

#endif
