/* SPDX-License-Identifier: GPL-2.0 */
/* kernel.h - boot phases, boot parameters and small kernel-wide helpers. */
#ifndef KERNEL_KERNEL_H
#define KERNEL_KERNEL_H

#include <ekdb/types.h>
#include <ekdb/bootinfo.h>
#include <asm/regs.h>

/* The loader's record, copied into the kernel image in setup_arch(). */
extern struct ekdb_bootinfo boot_params;
extern char boot_command_line[EKDB_CMDLINE_MAX];

/* Boot phases, named as in Linux so `break mm_init` works. */
void start_kernel(u64 bootinfo_phys);
void setup_arch(u64 bootinfo_phys);
void trap_init(void);
void mm_init(void);
void rest_init(void);

/* setup_arch steps */
void parse_early_param(void);
/* Normal (non-early) parameter lookup: value of "name=" or NULL; flags: "" */
const char *cmdline_get(const char *name);
bool cmdline_has(const char *name);

/* paging.c */
void init_mem_mapping(void);
u64 __pa_symbol(const void *kernel_va);
void paging_map_low_identity(bool on);
void *ioremap(u64 phys, u64 size);	/* paging.c: device memory, or NULL */
void paging_unmap_kernel_range(u64 start, u64 end);
void *early_ioremap_uc(u64 phys, u64 len);
extern u64 direct_map_end;

/* traps.c */
void die(const char *what, struct pt_regs *regs);
void show_regs(struct pt_regs *regs);
void show_stack(u64 rbp, u64 rip);
void __noreturn panic(const char *fmt, ...) __printf(1, 2);
void __noreturn halt_this_cpu(void);
extern volatile int oops_in_progress;

/* qemu_exit.c: QEMU isa-debug-exit; a no-op elsewhere */
#define QEMU_EXIT_SUCCESS 0x10
#define QEMU_EXIT_FAILURE 0x11
void qemu_exit(u8 code);

/* tests.c: test-only parameters (test_oops=, test_alloc) */
void run_boot_tests(void);
void run_mm_selftest(void);
void early_fault_test(void);
/* ekdbts= (kernel-glue/ekdbts_host.c): the debugger's self-test takes its line */
void ekdbts_setup(void);
void oops_test_irq_fire(void);
extern volatile bool oops_test_in_irq;
void debug_glue_boot(void);	/* debug_glue.c: the log and consoles for the debugger */
void debug_glue_init(void);	/* debug_glue.c: all the porting interface */
void serial_linetest(void);	/* linetest.c: test_linerate= */
void console_selftests(void);	/* kbdtest.c: test_kbd=, test_fbbench= */
void fbbench_run(const char *arg);	/* fbbench.c */

/* symbols from the linker script */
extern char _text[], _etext[], __rodata_start[], _erodata[], _sdata[], _ebss[], _end[];
extern char __ekdb_text_start[], __ekdb_text_end[];

#endif
