/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.c - the kdb environment: KDB_ENV_SLOTS fixed "NAME=VALUE" slots
 * inside the session (no allocation, a slot is reused when a variable is
 * set again).  The defaults are Linux 6.x kdb's __env[] on x86-64, in its
 * order; LINES, COLUMNS and BTAPROMPT are read with Linux's fallbacks
 * (24, 80, 1) when unset, as Linux's pager and bta do.
 */
#include "kdb.h"
#include <ekdb/parse.h>

static const char *const env_defaults[] = {
	"PROMPT=[%d]kdb> ",
	"MOREPROMPT=more> ",
	"RADIX=16",
	"MDCOUNT=8",
	"BYTESPERWORD=8",	/* Linux's KDB_PLATFORM_ENV on 64-bit */
	"DTABCOUNT=30",
	"NOSECT=1",
};

/** kdb_env_defaults - empty the environment and set the defaults. */
void kdb_env_defaults(struct kdb_session *s)
{
	memset(s->env, 0, sizeof(s->env));
	for (unsigned i = 0; i < ARRAY_SIZE(env_defaults); i++)
		strlcpy(s->env[i], env_defaults[i], KDB_ENV_LEN);
}

static int env_find(const struct kdb_session *s, const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < KDB_ENV_SLOTS; i++)
		if (!strncmp(s->env[i], name, n) && s->env[i][n] == '=')
			return i;
	return -1;
}

/** kdb_getenv - value of @name, or NULL when unset. */
const char *kdb_getenv(const struct kdb_session *s, const char *name)
{
	int i = env_find(s, name);

	return i < 0 ? NULL : s->env[i] + strlen(name) + 1;
}

/** kdb_getenv_int - numeric value of @name, @dflt when unset or not a number. */
long kdb_getenv_int(const struct kdb_session *s, const char *name, long dflt)
{
	const char *v = kdb_getenv(s, name);
	u64 x;

	if (!v || parse_u64(v, 0, &x))
		return dflt;
	return (long)x;
}

/**
 * kdb_setenv - set @name to @value (an empty value keeps the variable,
 * as Linux does).  Returns 0, -KDB_ENVBUFFULL (too long) or -KDB_ENVFULL.
 */
int kdb_setenv(struct kdb_session *s, const char *name, const char *value)
{
	size_t nl = strlen(name), vl = strlen(value);
	int i = env_find(s, name);

	if (!nl || strchr(name, '='))
		return -KDB_BADARG;
	if (nl + 1 + vl >= KDB_ENV_LEN)
		return -KDB_ENVBUFFULL;
	if (i < 0)
		for (i = 0; i < KDB_ENV_SLOTS && s->env[i][0]; i++)
			;
	if (i == KDB_ENV_SLOTS)
		return -KDB_ENVFULL;
	memcpy(s->env[i], name, nl);
	s->env[i][nl] = '=';
	memcpy(s->env[i] + nl + 1, value, vl + 1);
	return 0;
}

/** kdb_cmd_env - `env`: print every variable. */
int kdb_cmd_env(struct kdb_session *s, int argc, const char **argv)
{
	for (int i = 0; i < KDB_ENV_SLOTS && !kdb_interrupted(s); i++)
		if (s->env[i][0])
			kdb_printf(s, "%s\n", s->env[i]);
	return 0;
}

static int check_value(const char *name, const char *value)
{
	u64 v;

	if (!strcmp(name, "BYTESPERWORD"))
		return parse_u64(value, 0, &v) || (v != 1 && v != 2 && v != 4 && v != 8) ?
		       -KDB_BADWIDTH : 0;
	if (!strcmp(name, "RADIX"))
		return parse_u64(value, 10, &v) || (v != 8 && v != 10 && v != 16) ?
		       -KDB_BADRADIX : 0;
	if (!strcmp(name, "LINES") || !strcmp(name, "MDCOUNT") || !strcmp(name, "COLUMNS") ||
	    !strcmp(name, "DTABCOUNT") || !strcmp(name, "BTAPROMPT") || !strcmp(name, "BTARGS"))
		return parse_u64(value, 0, &v) ? -KDB_BADINT : 0;
	return 0;
}

/**
 * kdb_cmd_set - `set NAME VALUE` or `set NAME=VALUE`.  Numeric variables
 * are checked (BYTESPERWORD 1/2/4/8, RADIX 8/10/16, LINES ...).
 */
int kdb_cmd_set(struct kdb_session *s, int argc, const char **argv)
{
	char name[KDB_ENV_LEN];
	const char *value, *eq;
	int r;

	if (argc == 1 && (eq = strchr(argv[1], '=')) != NULL) {
		if ((size_t)(eq - argv[1]) >= sizeof(name))
			return -KDB_ENVBUFFULL;
		memcpy(name, argv[1], (size_t)(eq - argv[1]));
		name[eq - argv[1]] = 0;
		value = eq + 1;
	} else if (argc == 2 || (argc == 3 && !strcmp(argv[2], "="))) {
		if (strlcpy(name, argv[1], sizeof(name)) >= sizeof(name))
			return -KDB_ENVBUFFULL;
		value = argv[argc];
	} else {
		return argc == 1 ? -KDB_NOENVVALUE : -KDB_ARGCOUNT;
	}
	r = check_value(name, value);
	if (r)
		return r;
	return kdb_setenv(s, name, value);
}
