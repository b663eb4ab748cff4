// SPDX-License-Identifier: GPL-2.0
/*
 * tcp-relay - the TCP end of a serial line the launcher serves
 * (`tools/ekdb-qemu --serial tcp:PORT`), in front of a unix socket QEMU
 * listens on.
 *
 *     tcp-relay LISTEN_FD UNIX_PATH
 *
 * The launcher binds and listens itself (so that a port in use is an error
 * before QEMU starts) and hands the listening socket over as LISTEN_FD.
 *
 * Why a relay: QEMU's 16550 gives its chardev one byte per write; through
 * QEMU's TCP chardev each byte is a segment on the loopback, through a unix
 * socket it is not.  Why in C: the relay forwards what the guest sends as it
 * comes (a byte at a time while the guest is transmitting), so its cost per
 * wakeup is on every reply's critical path; a Python relay added 1-2 ms per
 * gdb packet (docs/bench.md, issue 13).
 *
 * Behaves like QEMU's `server=on,wait=off` TCP chardev: one client at a
 * time, a client that goes away frees the line for the next one, and what
 * the guest sends while nobody is connected is not read (QEMU drops it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#define UNIX_CONNECT_WAIT_MS	30000	/* a client may come before QEMU made its socket */
#define RETRY_MS		50
#define GATHER_US		50	/* see forward_guest() */

static const char *prog = "tcp-relay";

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000L;
}

/* A client that hung up (or broke) while we waited for QEMU. */
static int client_gone(int client, int wait_ms)
{
	struct pollfd p = { .fd = client, .events = POLLIN };
	char c;

	if (poll(&p, 1, wait_ms) <= 0)
		return 0;
	return recv(client, &c, 1, MSG_PEEK | MSG_DONTWAIT) <= 0;
}

static int connect_qemu(const char *path, int client)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	long deadline = now_ms() + UNIX_CONNECT_WAIT_MS;

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "%s: unix socket path too long: %s\n", prog, path);
		return -1;
	}
	strcpy(sa.sun_path, path);
	for (;;) {
		int u = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (u < 0)
			return -1;
		if (connect(u, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			return u;
		int err = errno;

		close(u);
		if ((err != ENOENT && err != ECONNREFUSED) || now_ms() > deadline) {
			fprintf(stderr, "%s: cannot reach QEMU's socket %s: %s\n",
				prog, path, strerror(err));
			return -1;
		}
		if (client_gone(client, RETRY_MS))
			return -1;
	}
}

static int write_all(int to, const char *buf, size_t n)
{
	for (size_t off = 0; off < n; ) {
		ssize_t w = write(to, buf + off, n - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		off += (size_t)w;
	}
	return 1;
}

static int hexdigit(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

/* Does @buf end a gdb packet ("...#hh")?  Then the client wants it now. */
static int ends_packet(const char *buf, size_t n)
{
	return n >= 3 && buf[n - 3] == '#' && hexdigit(buf[n - 2]) && hexdigit(buf[n - 1]);
}

/* gdb to QEMU: as it comes (gdb writes a packet at a time). */
static int forward_client(int client, int u)
{
	static char buf[65536];
	ssize_t n = read(client, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN);
	return write_all(u, buf, (size_t)n);
}

/*
 * QEMU to gdb: the guest's UART arrives a byte per write, a few microseconds
 * apart.  Forwarding each byte as it comes costs a wakeup of the relay and
 * of gdb per byte, and on a busy 2-core host those wakeups compete with
 * QEMU's vCPU (the bench's bp figure was 1.7x the unix one).  So gather:
 * a buffer that ends a gdb packet goes out at once; otherwise sleep a
 * little and take what came meanwhile, until the line is quiet (kdb text,
 * an ack, a partial packet) or the buffer is full.
 */
static int forward_guest(int u, int client)
{
	static char buf[65536];
	const struct timespec gather = { 0, GATHER_US * 1000L };
	ssize_t n = read(u, buf, sizeof(buf));
	size_t len;

	if (n <= 0)
		return n < 0 && (errno == EINTR || errno == EAGAIN);
	len = (size_t)n;
	while (!ends_packet(buf, len) && len < sizeof(buf)) {
		nanosleep(&gather, NULL);
		n = recv(u, buf + len, sizeof(buf) - len, MSG_DONTWAIT);
		if (n <= 0) {
			if (n < 0 && (errno == EAGAIN || errno == EINTR))
				break;          /* quiet: send what we have */
			write_all(client, buf, len);
			return 0;               /* QEMU went away */
		}
		len += (size_t)n;
	}
	return write_all(client, buf, len);
}

static void pump(int client, int u)
{
	struct pollfd p[2] = {
		{ .fd = client, .events = POLLIN },
		{ .fd = u, .events = POLLIN },
	};

	for (;;) {
		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[1].revents && !forward_guest(u, client))
			return;
		if (p[0].revents && !forward_client(client, u))
			return;
	}
}

int main(int argc, char **argv)
{
	int one = 1;
	char *end;

	if (argc != 3) {
		fprintf(stderr, "usage: %s LISTEN_FD UNIX_PATH\n", prog);
		return 2;
	}
	long lfd = strtol(argv[1], &end, 10);

	if (*argv[1] == '\0' || *end || lfd < 0 || lfd > 65535) {
		fprintf(stderr, "%s: not a file descriptor: %s\n", prog, argv[1]);
		return 2;
	}
	/* The launcher owns us: go when it goes. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	signal(SIGPIPE, SIG_IGN);
	for (;;) {
		int client = accept4((int)lfd, NULL, NULL, SOCK_CLOEXEC);

		if (client < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			fprintf(stderr, "%s: accept: %s\n", prog, strerror(errno));
			return 1;
		}
		setsockopt(client, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		int u = connect_qemu(argv[2], client);

		if (u >= 0) {
			pump(client, u);
			close(u);
		}
		close(client);
	}
}
