# hiredis (Debian: libhiredis-dev), which formats Redis commands and parses replies for
# forma::redis, as the imported target forma::hiredis: its library and headers only. (Its
# pkg-config file adds -D_FILE_OFFSET_BITS=64, which would change every unit's flags.)
if(NOT TARGET forma::hiredis)
  find_path(FORMA_HIREDIS_INCLUDE_DIR hiredis/hiredis.h)
  find_library(FORMA_HIREDIS_LIBRARY hiredis)
  if(NOT FORMA_HIREDIS_INCLUDE_DIR OR NOT FORMA_HIREDIS_LIBRARY)
    message(FATAL_ERROR "forma needs hiredis (Debian: libhiredis-dev; tools/bootstrap installs it)")
  endif()
  add_library(forma::hiredis UNKNOWN IMPORTED)
  set_target_properties(forma::hiredis PROPERTIES IMPORTED_LOCATION "${FORMA_HIREDIS_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${FORMA_HIREDIS_INCLUDE_DIR}")
endif()
