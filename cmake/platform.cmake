# SPDX-License-Identifier: Apache-2.0
# ndplint - the platform: feature-test macros for every file, and which
# calls beyond POSIX.1-2008 the system offers (NDP_HAVE_*, written to the
# generated header platform_config.h that src/util/compat.c reads).
#
# NDP_PORTABLE=ON asks for POSIX.1-2008 with its X/Open System Interfaces
# and nothing more (_POSIX_C_SOURCE=200809L, _XOPEN_SOURCE=700: XSI for
# realpath(), which every Unix has) and sets every NDP_HAVE_* to 0, so a
# Linux build compiles and tests the fallbacks a macOS or BSD build uses;
# a Linux-only call added outside src/util/compat.c then fails to compile
# there.
include(CheckSymbolExists)

option(NDP_PORTABLE
       "Build the POSIX fallback of every Linux-only call (as macOS or BSD do)"
       OFF)

# glibc and musl show their extensions only when asked (_GNU_SOURCE);
# macOS and the BSDs show everything unless a standard is asked for, and
# _POSIX_C_SOURCE alone would hide memmem() and MAP_ANONYMOUS there, so
# macOS gets _DARWIN_C_SOURCE (which restores them) and the BSDs nothing.
set(NDP_POSIX_MACROS _POSIX_C_SOURCE=200809L _XOPEN_SOURCE=700)
if(NDP_PORTABLE)
  set(NDP_FEATURE_MACROS ${NDP_POSIX_MACROS})
elseif(CMAKE_SYSTEM_NAME MATCHES "^(Linux|Android|GNU|CYGWIN|MSYS)$")
  set(NDP_FEATURE_MACROS _GNU_SOURCE)
elseif(APPLE)
  set(NDP_FEATURE_MACROS _DARWIN_C_SOURCE)
elseif(CMAKE_SYSTEM_NAME MATCHES "BSD|DragonFly")
  set(NDP_FEATURE_MACROS)
else()
  set(NDP_FEATURE_MACROS ${NDP_POSIX_MACROS})
endif()
add_compile_definitions(${NDP_FEATURE_MACROS})

# Sets 'var' to 1 when every symbol of the SYMBOL HEADER pairs that follow
# is declared, compiled with the definitions the program is built with;
# to 0 under NDP_PORTABLE.
function(ndp_check_platform var)
  set(${var} 0 PARENT_SCOPE)
  if(NDP_PORTABLE)
    return()
  endif()
  set(CMAKE_REQUIRED_DEFINITIONS)
  foreach(definition IN LISTS NDP_FEATURE_MACROS)
    list(APPEND CMAKE_REQUIRED_DEFINITIONS -D${definition})
  endforeach()
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs symbol header)
    check_symbol_exists(${symbol} ${header} NDP_SYMBOL_${symbol})
    if(NOT NDP_SYMBOL_${symbol})
      return()
    endif()
  endwhile()
  set(${var} 1 PARENT_SCOPE)
endfunction()

# One line per NDP_HAVE_* of src/util/platform_config.h.in.
ndp_check_platform(NDP_HAVE_MEMMEM memmem string.h)
ndp_check_platform(NDP_HAVE_MAP_ANONYMOUS MAP_ANONYMOUS sys/mman.h)
ndp_check_platform(NDP_HAVE_MAP_NORESERVE MAP_NORESERVE sys/mman.h)
ndp_check_platform(NDP_HAVE_MADV_HUGEPAGE
                   madvise sys/mman.h MADV_HUGEPAGE sys/mman.h)
ndp_check_platform(NDP_HAVE_MADV_DONTNEED
                   madvise sys/mman.h MADV_DONTNEED sys/mman.h)
ndp_check_platform(NDP_HAVE_F_SETPIPE_SZ F_SETPIPE_SZ fcntl.h)
ndp_check_platform(NDP_HAVE_X86_CPU_FEATURES
                   CPU_FEATURE_ACTIVE sys/platform/x86.h)

set(NDP_GENERATED_INCLUDE_DIR ${PROJECT_BINARY_DIR}/generated)
configure_file(${PROJECT_SOURCE_DIR}/src/util/platform_config.h.in
               ${NDP_GENERATED_INCLUDE_DIR}/platform_config.h)
