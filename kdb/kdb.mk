# kdb/kdb.mk - compile the initial command file kdb/kdb_cmds into the
# kernel as kdb_builtin_cmds[] (tools/gen-kdb-cmds.py), like Linux's
# kdb_cmds awk rule.  Include it right after KOBJS is defined in the
# top-level Makefile (it appends to KOBJS, which the link rules use).

ifndef KDB_MK_INCLUDED
KDB_MK_INCLUDED := 1

KDB_CMDS_C := $(BUILD)/gen/kdb_cmds.c

$(KDB_CMDS_C): kdb/kdb_cmds tools/gen-kdb-cmds.py
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)$(PYTHON) tools/gen-kdb-cmds.py kdb/kdb_cmds > $@

$(BUILD)/k/gen/kdb_cmds.c.o: $(KDB_CMDS_C)
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -c $< -o $@

KOBJS += $(BUILD)/k/gen/kdb_cmds.c.o
endif
