# Read by cpack (CPACK_PROJECT_CONFIG_FILE): the Debian packages are of shared libraries only.
if(CPACK_GENERATOR STREQUAL "DEB" AND NOT CPACK_CADENCE_SHARED)
  message(FATAL_ERROR "cadence: the Debian packages hold shared libraries, and this build is static: "
                      "configure it with -DBUILD_SHARED_LIBS=ON (scripts/package does)")
endif()
