# SPDX-License-Identifier: GPL-2.0
test_video_mode_SRCS := kernel-glue/drivers/video_mode.c lib/parse.c
