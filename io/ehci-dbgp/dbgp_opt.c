/* SPDX-License-Identifier: GPL-2.0 */
/* dbgp_opt.c - parse kgdbdbgp=N[,secs] (pure: host-built by the cmdline fuzzer). */
#include "ehci_dbgp.h"
#include <ekdb/errno.h>

int dbgp_parse_kgdbdbgp(const char *v, unsigned *index, unsigned *secs)
{
	unsigned s = 0;

	if (!v || v[0] < '0' || v[0] > '9')
		return -EKDB_EINVAL;
	*index = (unsigned)(v[0] - '0');
	v++;
	if (*v == 0) {
		*secs = 0;
		return 0;
	}
	if (*v++ != ',' || !*v)
		return -EKDB_EINVAL;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || s > 3600)
			return -EKDB_EINVAL;
		s = s * 10 + (unsigned)(*v - '0');
	}
	if (s > 3600)
		return -EKDB_EINVAL;
	*secs = s;
	return 0;
}
