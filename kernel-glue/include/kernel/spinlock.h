/* SPDX-License-Identifier: GPL-2.0 */
/* spinlock.h - a minimal test-and-set spinlock with interrupt-saving variants. */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include <ekdb/types.h>

/*
 * spinlock_t - a byte that is 0 when free and 1 when held.
 *
 * spin_lock_irqsave() disables interrupts on this CPU (saving RFLAGS in
 * @flags) before taking the lock, so an interrupt handler on the same CPU
 * can never spin on a lock its own CPU holds.  Host builds (-DEKDB_HOST)
 * keep the atomic lock but have no interrupts to mask.
 */
typedef struct {
	volatile unsigned char locked;
} spinlock_t;

#define __SPIN_LOCK_UNLOCKED	{ 0 }
#define DEFINE_SPINLOCK(name)	spinlock_t name = __SPIN_LOCK_UNLOCKED

static inline void spin_lock_init(spinlock_t *lock)
{
	__atomic_store_n(&lock->locked, 0, __ATOMIC_RELEASE);
}

static inline void __spin_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ __volatile__("pause" ::: "memory");
#else
	barrier();
#endif
}

/**
 * spin_trylock() - take @lock if it is free.
 * @lock: the lock
 *
 * Return: true when the lock was taken.
 */
static inline bool spin_trylock(spinlock_t *lock)
{
	return !__atomic_test_and_set((void *)&lock->locked, __ATOMIC_ACQUIRE);
}

/**
 * spin_lock() - take @lock, spinning until it is free.
 * @lock: the lock
 */
static inline void spin_lock(spinlock_t *lock)
{
	while (__atomic_test_and_set((void *)&lock->locked, __ATOMIC_ACQUIRE)) {
		while (__atomic_load_n(&lock->locked, __ATOMIC_RELAXED))
			__spin_cpu_relax();
	}
}

/**
 * spin_unlock() - release @lock.
 * @lock: the lock
 */
static inline void spin_unlock(spinlock_t *lock)
{
	__atomic_clear((void *)&lock->locked, __ATOMIC_RELEASE);
}

static inline bool spin_is_locked(spinlock_t *lock)
{
	return __atomic_load_n(&lock->locked, __ATOMIC_RELAXED) != 0;
}

#ifdef EKDB_HOST
static inline unsigned long __spin_irq_save(void) { return 0; }
static inline void __spin_irq_restore(unsigned long flags) { (void)flags; }
#else
static inline unsigned long __spin_irq_save(void)
{
	unsigned long flags;

	__asm__ __volatile__("pushfq; popq %0; cli" : "=r"(flags) :: "memory");
	return flags;
}

static inline void __spin_irq_restore(unsigned long flags)
{
	__asm__ __volatile__("pushq %0; popfq" :: "r"(flags) : "memory", "cc");
}
#endif

/* Save RFLAGS into @flags (an unsigned long), disable interrupts, take @lock. */
#define spin_lock_irqsave(lock, flags)		\
	do {					\
		(flags) = __spin_irq_save();	\
		spin_lock(lock);		\
	} while (0)

/* Release @lock, then restore the interrupt flag saved by spin_lock_irqsave(). */
#define spin_unlock_irqrestore(lock, flags)	\
	do {					\
		spin_unlock(lock);		\
		__spin_irq_restore(flags);	\
	} while (0)

#endif /* KERNEL_SPINLOCK_H */
