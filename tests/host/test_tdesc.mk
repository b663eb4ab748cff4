# The register table and the build-time target.xml (arch/x86/tdesc.mk).
include arch/x86/tdesc.mk
test_tdesc_SRCS := $(X86_TDESC_SRCS)
