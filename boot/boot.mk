# boot/boot.mk - builds the UEFI loader $(BUILD)/boot/BOOTX64.EFI with GNU-EFI.
# Included by the top-level Makefile; every boot/*.c and boot/*.S is part of it.

EFI_INC     ?= /usr/include/efi
EFI_LIBDIR  ?= /usr/lib
EFI_CRT0    := $(EFI_LIBDIR)/crt0-efi-x86_64.o
# GNU-EFI's link script plus the debugger's sections (boot/dbg/loader.lds)
EFI_LDS     := boot/dbg/loader.lds

BOOT_CFLAGS := -std=gnu11 -O2 -g -fpic -fno-omit-frame-pointer -fno-optimize-sibling-calls -fshort-wchar -mno-red-zone -ffreestanding \
               -fno-stack-protector -fno-strict-aliasing -fno-builtin -maccumulate-outgoing-args \
               -DGNU_EFI_USE_MS_ABI -DEKDB_LOADER \
               -Wall -Wextra -Werror -Wno-unused-parameter -Wshadow \
               -I$(EFI_INC) -I$(EFI_INC)/x86_64 -Iinclude -MMD -MP
BOOT_LDFLAGS := -nostdlib -znocombreloc -shared -Bsymbolic --no-undefined -T $(EFI_LDS) \
                -L$(EFI_LIBDIR)

BOOT_SRCS := $(sort $(wildcard boot/*.c boot/*.S))
BOOT_OBJS := $(patsubst boot/%,$(BUILD)/boot/%.o,$(BOOT_SRCS))
include boot/dbg/dbg.mk
BOOT_CFLAGS += -Iboot/dbg

$(BUILD)/boot/%.c.o: boot/%.c
	@mkdir -p $(dir $@)
	@echo "  EFICC   $<"
	$(Q)$(CC) $(BOOT_CFLAGS) -c $< -o $@

$(BUILD)/boot/%.S.o: boot/%.S
	@mkdir -p $(dir $@)
	@echo "  EFIAS   $<"
	$(Q)$(CC) $(BOOT_CFLAGS) -c $< -o $@

# loader.so keeps its symbols and DWARF: gdb reads it (qXfer:libraries:read names it).
# Two links, as the kernel's: the first without a symbol table, then the table
# generated from it (kdb's names for loader code) at the end of .data, which
# moves no code or data symbol.
$(BUILD)/boot/ldr_kallsyms0.S:
	@mkdir -p $(dir $@)
	$(Q)$(PYTHON) tools/gen-kallsyms.py --empty > $@

$(BUILD)/boot/ldr_kallsyms%.o: $(BUILD)/boot/ldr_kallsyms%.S
	$(Q)$(CC) $(BOOT_CFLAGS) -D__ASSEMBLY__ -Wa,--noexecstack -c $< -o $@

$(BUILD)/boot/loader.pass1.so: $(BOOT_OBJS) $(LDR_DBG_OBJS) $(BUILD)/boot/ldr_kallsyms0.o $(EFI_CRT0) $(EFI_LDS)
	@echo "  EFILD   $@"
	$(Q)$(LD) $(BOOT_LDFLAGS) -o $@ $(EFI_CRT0) $(BOOT_OBJS) $(LDR_DBG_OBJS) \
		$(BUILD)/boot/ldr_kallsyms0.o -lefi -lgnuefi

$(BUILD)/boot/ldr_kallsyms1.S: $(BUILD)/boot/loader.pass1.so tools/gen-kallsyms.py
	$(Q)$(NM) -n -S $< | $(PYTHON) tools/gen-kallsyms.py --absolute > $@

$(BUILD)/boot/loader.so: $(BOOT_OBJS) $(LDR_DBG_OBJS) $(BUILD)/boot/ldr_kallsyms1.o $(EFI_CRT0) $(EFI_LDS)
	@echo "  EFILD   $@"
	$(Q)$(LD) $(BOOT_LDFLAGS) -o $@ $(EFI_CRT0) $(BOOT_OBJS) $(LDR_DBG_OBJS) \
		$(BUILD)/boot/ldr_kallsyms1.o -lefi -lgnuefi

$(BUILD)/boot/BOOTX64.EFI: $(BUILD)/boot/loader.so
	@echo "  EFIAPP  $@"
	$(Q)$(OBJCOPY) -j .text -j .sdata -j .data -j .rodata -j .dynamic -j .dynsym \
		-j .rel -j .rela -j '.rel.*' -j '.rela.*' -j .reloc \
		--target efi-app-x86_64 --subsystem=10 $< $@

.PHONY: boot
boot: $(BUILD)/boot/BOOTX64.EFI

-include $(BOOT_OBJS:.o=.d)
$(BOOT_OBJS): boot/boot.mk
