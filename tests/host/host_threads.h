/* SPDX-License-Identifier: GPL-2.0 */
/* host_threads.h - run one worker on several threads at once (allocator concurrency tests). */
#ifndef TESTS_HOST_THREADS_H
#define TESTS_HOST_THREADS_H

#include <pthread.h>
#include <stdint.h>

/*
 * Start @n threads of @fn (argument 1..n), join them all; returns how many
 * failed to start or returned non-NULL (a worker returns NULL when happy).
 */
static inline int run_concurrently(void *(*fn)(void *), unsigned n)
{
	pthread_t t[16];
	int bad = 0;
	void *ret;

	if (n > 16)
		n = 16;
	for (unsigned i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, fn, (void *)(uintptr_t)(i + 1)))
			return (int)n;
	for (unsigned i = 0; i < n; i++)
		if (pthread_join(t[i], &ret) || ret)
			bad++;
	return bad;
}

#endif
