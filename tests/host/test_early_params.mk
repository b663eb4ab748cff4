# Host test of every early parameter's bad values (tests/host/test_early_params.c).
# It links every source that declares an EARLY_PARAM (found here, so a new
# option's file is linked, and its table entry walked, without editing this
# file), what their handlers parse with, and kernel-glue/params.c's
# parse_early_param.  --gc-sections keeps what the handlers reach; the
# linker script gives the section its bounds.
EARLY_PARAM_RE := EARLY_PARAM[[:space:]]*[(]
EARLY_PARAM_SRCS := $(filter-out tests/% include/%,$(shell grep -rl --include='*.c' --exclude-dir=build --exclude-dir=.git '$(EARLY_PARAM_RE)' . | sed 's|^\./||' | sort))
test_early_params_SRCS := $(sort $(EARLY_PARAM_SRCS) kernel-glue/params.c core/opts.c core/port.c \
	core/kgdboc.c selftest/ekdbts_wire.c early/transports.c kdb/cmd_enable.c \
	io/serial/serial_opt.c io/serial/earlycon_opt.c io/serial/spcr.c \
	io/ehci-dbgp/dbgp_opt.c lib/cmdline.c lib/parse.c lib/errno.c lib/fmt.c \
	tests/host/host_log.c)
test_early_params_CFLAGS := -ffunction-sections -fdata-sections --param asan-globals=0
test_early_params_LDFLAGS := -Wl,--gc-sections -Wl,-T,tests/host/early_param.ld
