# SPDX-License-Identifier: Apache-2.0
# Cross-compiling ndplint for Linux aarch64 on Debian (ci/release-build.sh,
# the release workflow): gcc-aarch64-linux-gnu, the arm64 json-c and PCRE2
# development packages through multiarch (dpkg --add-architecture arm64;
# libjson-c-dev:arm64 libpcre2-dev:arm64), and qemu-user-static, which runs
# the build-time rule compiler (ndplint-rulec, an aarch64 program here) as
# CMake's emulator.  pkg-config must read the arm64 .pc files:
# PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig, which
# ci/release-build.sh sets.
#   cmake -S . -B build-arm64 \
#         -DCMAKE_TOOLCHAIN_FILE=cmake/toolchain-aarch64-linux-gnu.cmake ...
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64-static)
