# SPDX-License-Identifier: Apache-2.0
# -DNDP_STATIC=ON: one self-contained ndplint binary, to copy into any Linux
# container or CI runner.  json-c and PCRE2 come from their static archives
# (Debian's libjson-c-dev and libpcre2-dev ship libjson-c.a and
# libpcre2-8.a), and the C library is linked statically too: ndplint calls
# nothing of glibc's that loads code at run time (no getpwnam, getaddrinfo,
# iconv or dlopen; no locale but "C"), so a static glibc serves it whole.
# Included by CMakeLists.txt before the libraries are looked for; configure
# a static build in a build directory of its own.  'file build/ndplint'
# then says "statically linked".
option(NDP_STATIC "Link json-c, PCRE2 and the C library statically" OFF)

if(NDP_STATIC)
  if(NDP_SANITIZE OR NDP_FUZZ)
    message(FATAL_ERROR
      "NDP_STATIC=ON cannot be combined with NDP_SANITIZE or NDP_FUZZ: the "
      "sanitizer runtimes are shared libraries.  Configure the static build "
      "in a build directory of its own.")
  endif()
  # pkg_check_modules finds each library named by pkg-config with
  # find_library, which then picks the archive.
  set(CMAKE_FIND_LIBRARY_SUFFIXES ${CMAKE_STATIC_LIBRARY_SUFFIX})
endif()

# '-static' for the program 'target' (ndplint).  Only the program: the test
# programs of a static build link the archives too, but Debian ships cmocka
# only as a shared library, so they keep the dynamic C library.  Not on
# macOS, whose C library exists only as a shared one: there NDP_STATIC
# links json-c and PCRE2 from their archives (Homebrew's libjson-c.a and
# libpcre2-8.a), and the binary needs only the system's libSystem (the
# release's macOS archives, ci/release-build.sh; checked by review only).
function(ndp_static_link target)
  if(NDP_STATIC AND NOT APPLE)
    target_link_options(${target} PRIVATE -static)
  endif()
endfunction()

# Called after pkg_check_modules: a library found before NDP_STATIC was
# turned on stays in the cache as a shared object, and '-static' would fail
# later with a linker message that does not say why.
function(ndp_static_check_libraries)
  if(NOT NDP_STATIC)
    return()
  endif()
  foreach(target IN LISTS ARGN)
    get_target_property(libraries ${target} INTERFACE_LINK_LIBRARIES)
    foreach(library IN LISTS libraries)
      if(library MATCHES "\\.so(\\.[0-9]+)*$|\\.dylib$")
        message(FATAL_ERROR
          "NDP_STATIC=ON: ${target} links ${library}, a shared library "
          "(its static archive is missing, or this build directory found "
          "it before NDP_STATIC was on).  Install the -dev package that "
          "ships the .a file, and configure in a new build directory.")
      endif()
    endforeach()
  endforeach()
endfunction()
