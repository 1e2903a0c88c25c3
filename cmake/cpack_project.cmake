# SPDX-License-Identifier: Apache-2.0
# Read by cpack before it packs (CPACK_PROJECT_CONFIG_FILE, set in
# cmake/package.cmake).  Without dpkg-shlibdeps, CPack's DEB generator
# says so in one line and writes a package that depends on nothing, which
# installs cleanly and then fails to start where json-c or PCRE2 is
# missing; stop instead, and say what to install.
if(CPACK_GENERATOR STREQUAL "DEB" AND CPACK_DEBIAN_PACKAGE_SHLIBDEPS)
  find_program(NDP_DPKG_SHLIBDEPS dpkg-shlibdeps)
  if(NOT NDP_DPKG_SHLIBDEPS)
    message(FATAL_ERROR
      "cpack -G DEB: dpkg-shlibdeps (Debian package dpkg-dev) is needed to "
      "write the package's Depends; install it and run cpack again.")
  endif()
endif()
