# SPDX-License-Identifier: GPL-2.0
# vga.mk - the console font: a Debian console font (package
# console-setup-linux, see tools/deps.sh) converted at build time by
# tools/gen_font.py into $(BUILD)/gen/font8x16.c, compiled into the kernel
# and linked by the host tests that draw (test_fbcon).
#
# Include it from the top-level Makefile right after KOBJS is set
# (`include io/vga/vga.mk`); tests/host/test_fbcon.mk includes it too,
# so it works from either place (guarded against double inclusion).
ifndef EKDB_VGA_MK
EKDB_VGA_MK := 1

FONT_PSF  ?= /usr/share/consolefonts/Lat15-VGA16.psf.gz
FONT_C    := $(BUILD)/gen/font8x16.c
FONT_KOBJ := $(BUILD)/k/io/vga/font8x16.gen.o

$(FONT_C): tools/gen_font.py io/vga/vga.mk
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	$(Q)$(PYTHON) tools/gen_font.py $(FONT_PSF) > $@.tmp && mv $@.tmp $@

$(FONT_KOBJ): $(FONT_C) io/vga/font.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(KCFLAGS) -Iio/vga -c $< -o $@

KOBJS += $(FONT_KOBJ)
# Also as explicit prerequisites, in case this is included after the link rules.
$(BUILD)/kernel.pass1.elf $(BUILD)/kernel.elf: $(FONT_KOBJ)
endif
