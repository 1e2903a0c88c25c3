# SPDX-License-Identifier: Apache-2.0
# The Debian package: 'cpack -G DEB' in a build directory packs what
# 'cmake --install' installs (the program, ndplint(1), ndplint.json(5), the
# bash, zsh and fish completions, the licence as the package's copyright
# file) under /usr, and nothing else: the test programs and ndplint-rulec
# have no install rule.  Build the package from a build configured with
# -DNDP_TESTS=OFF and a Release or RelWithDebInfo build type (the default);
# CPack strips the binary.  docs/install.md says how.
#
# Depends is computed by dpkg-shlibdeps (Debian's dpkg-dev) from the
# libraries the binary really links: on Debian 12 that is libc6,
# libjson-c5 and libpcre2-8-0 with the lowest versions that provide every
# symbol used, so the package installs wherever those do.  A -DNDP_STATIC=ON
# build links none of them, and its package depends on nothing.
# Included at the end of CMakeLists.txt when ndplint is the top-level
# project (a parent project packages itself).

set(NDP_PACKAGE_MAINTAINER "The ndplint authors <ndplint@users.noreply.github.com>"
    CACHE STRING "The Maintainer field of the Debian package")

set(CPACK_PACKAGE_NAME ndplint)
set(CPACK_PACKAGE_VENDOR "The ndplint authors")
set(CPACK_PACKAGE_CONTACT ${NDP_PACKAGE_MAINTAINER})
set(CPACK_PACKAGE_HOMEPAGE_URL "https://github.com/ndplint/ndplint")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY
    "find the changes that make Azure Kubernetes Service reimage nodes")
set(CPACK_PACKAGE_DESCRIPTION
"ndplint reads a Terraform plan (terraform show -json) or an ARM/Bicep
what-if result and reports, before the change is applied, which changes
make Azure Kubernetes Service drain and rebuild the nodes of a cluster or
node pool, and whether the cluster's node disruption policy (Allow,
AllowDuringMaintenanceWindow, Block) will make AKS refuse the change
halfway through the apply. It writes text, JSON, SARIF, JUnit, Markdown,
GitHub, Azure Pipelines and GitLab reports.")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_GENERATOR DEB)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION devel)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# cpack refuses to pack without dpkg-shlibdeps rather than drop Depends.
set(CPACK_PROJECT_CONFIG_FILE ${CMAKE_CURRENT_LIST_DIR}/cpack_project.cmake)

# Debian looks for a package's licence in /usr/share/doc/PACKAGE/copyright.
install(FILES ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR} RENAME copyright)

include(CPack)
