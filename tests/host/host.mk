# Host unit tests (cmocka).  Each tests/host/test_NAME.c is one test binary;
# tests/host/test_NAME.mk sets test_NAME_SRCS to the project sources it links
# (compiled for the host with -DEKDB_HOST), and optionally test_NAME_CFLAGS and
# test_NAME_LDFLAGS.  Nothing else needs editing here.

HOST_CFLAGS := -std=gnu11 -g -O1 -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
               -Iinclude -Itests/host -Ikernel-glue/include -Iarch/x86/include -DEKDB_HOST -fsanitize=address,undefined -fno-sanitize-recover=all \
               -fno-omit-frame-pointer -MMD -MP
HOST_LIBS   := -lcmocka

HOST_TESTS := $(patsubst tests/host/%.c,%,$(wildcard tests/host/test_*.c))
include $(wildcard tests/host/test_*.mk)

define host_test_rule
$(BUILD)/host/$(1): tests/host/$(1).c $$($(1)_SRCS)
	@mkdir -p $$(dir $$@)
	@echo "  HOSTCC  $$@"
	$$(Q)$$(HOSTCC) $$(HOST_CFLAGS) $$($(1)_CFLAGS) -MF $$@.d -o $$@ $$(filter %.c,$$^) $$($(1)_LDFLAGS) $$(HOST_LIBS)
-include $(BUILD)/host/$(1).d
endef
$(foreach t,$(HOST_TESTS),$(eval $(call host_test_rule,$(t))))

HOST_BINS := $(addprefix $(BUILD)/host/,$(HOST_TESTS))

# Runs every host test; prints one cmocka summary per binary and a total line.
check-host: $(HOST_BINS)
	$(Q)tools/run-host-tests.sh $(HOST_BINS)
