# SPDX-License-Identifier: Apache-2.0
# NDP_STATIC: one self-contained ndplint binary, to copy into any Linux
# container or CI runner, and one that starts without a dynamic loader
# (loading the C library, json-c and PCRE2 is a third of the time a small
# plan takes).  json-c and PCRE2 come from their static archives (Debian's
# libjson-c-dev and libpcre2-dev ship libjson-c.a and libpcre2-8.a), and
# the C library is linked statically too: ndplint calls nothing of
# glibc's that loads code at run time (no getpwnam, getaddrinfo, iconv or
# dlopen; no locale but "C"), so a static glibc serves it whole.
#   AUTO (the default): static on Linux where the three archives link,
#        except in a sanitizer or fuzzing build (their runtimes are shared
#        libraries) and where valgrind must see the C library's malloc
#        (ci/test.sh configures that build with OFF);
#   ON:  static, or a configuration error that says what is missing;
#   OFF: the shared libraries.
# Included by CMakeLists.txt before the libraries are looked for; change it
# in a build directory of its own.  'file build/ndplint' says "statically
# linked" when it is.  NDP_LINK_STATIC holds what was decided.
set(NDP_STATIC AUTO CACHE STRING
    "Link json-c, PCRE2 and the C library statically: AUTO, ON or OFF")
set_property(CACHE NDP_STATIC PROPERTY STRINGS AUTO ON OFF)

# Do the static archives of json-c, PCRE2 and the C library link here?
function(ndp_static_archives_link out)
  include(CheckCSourceCompiles)
  find_library(NDP_JSONC_ARCHIVE NAMES libjson-c.a)
  find_library(NDP_PCRE2_ARCHIVE NAMES libpcre2-8.a)
  set(${out} FALSE PARENT_SCOPE)
  if(NOT NDP_JSONC_ARCHIVE OR NOT NDP_PCRE2_ARCHIVE)
    return()
  endif()
  set(CMAKE_REQUIRED_LINK_OPTIONS -static)
  set(CMAKE_REQUIRED_LIBRARIES ${NDP_JSONC_ARCHIVE} ${NDP_PCRE2_ARCHIVE}
                               pthread)
  check_c_source_compiles("
    #include <json-c/json.h>
    #define PCRE2_CODE_UNIT_WIDTH 8
    #include <pcre2.h>
    int main(void)
    {
        json_object_put(json_object_new_object());
        return pcre2_compile((PCRE2_SPTR)\"a\", 1, 0, 0, 0, 0) != 0;
    }" NDP_STATIC_ARCHIVES_LINK)
  set(${out} ${NDP_STATIC_ARCHIVES_LINK} PARENT_SCOPE)
endfunction()

if(NDP_STATIC STREQUAL "AUTO")
  set(NDP_LINK_STATIC FALSE)
  if(CMAKE_SYSTEM_NAME STREQUAL "Linux" AND NOT NDP_SANITIZE
     AND NOT NDP_FUZZ)
    ndp_static_archives_link(NDP_LINK_STATIC)
  endif()
  if(NDP_LINK_STATIC)
    message(STATUS "ndplint: linked statically (NDP_STATIC=AUTO; "
                   "-DNDP_STATIC=OFF links the shared libraries)")
  else()
    message(STATUS "ndplint: linked with shared libraries (NDP_STATIC=AUTO: "
                   "no static archives, or a sanitizer, fuzzing or "
                   "non-Linux build)")
  endif()
elseif(NDP_STATIC)
  set(NDP_LINK_STATIC TRUE)
else()
  set(NDP_LINK_STATIC FALSE)
endif()

if(NDP_LINK_STATIC)
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
  if(NDP_LINK_STATIC AND NOT APPLE)
    target_link_options(${target} PRIVATE -static)
  endif()
endfunction()

# Called after pkg_check_modules: a library found before NDP_STATIC was
# turned on stays in the cache as a shared object, and '-static' would fail
# later with a linker message that does not say why.
function(ndp_static_check_libraries)
  if(NOT NDP_LINK_STATIC)
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
