# Checks forma's GoogleTest main and gtest_suites.cmake on gtest_main_check.cpp's binary:
#   cmake -D EXECUTABLE=<binary> -D SUITES_SCRIPT=<gtest_suites.cmake> -D WORK=<dir> -P check_gtest_main.cmake
# Prints "gtest main and suites: checked" when every check holds.

# The exit codes CTest reads: 77 (skipped) only when every test that ran skipped itself.
function(expect_exit filter code)
  execute_process(COMMAND "${EXECUTABLE}" "--gtest_filter=${filter}" RESULT_VARIABLE result OUTPUT_QUIET ERROR_QUIET)
  if(NOT result STREQUAL "${code}")
    message(FATAL_ERROR "--gtest_filter=${filter}: exit ${result}, expected ${code}")
  endif()
endfunction()
expect_exit("all_skipped.*" 77)
expect_exit("all_skipped.*:passes.*" 0)
expect_exit("all_skipped.*:fails.*" 1)
expect_exit("passes.*" 0)
expect_exit("fails.*" 1)

# The listing: one test per suite, parameterized and typed suites included, the disabled one not.
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CMAKE_COMMAND}" -D "EXECUTABLE=${EXECUTABLE}" -D "OUTPUT=${WORK}/suites.cmake"
                        -D "WORKING_DIRECTORY=${WORK}" "-DLABELS=first;second" -P "${SUITES_SCRIPT}"
                RESULT_VARIABLE result)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "gtest_suites.cmake failed (${result})")
endif()
file(READ "${WORK}/suites.cmake" listed)
string(REGEX MATCHALL "--gtest_filter=[^]]*" filters "${listed}")
list(SORT filters)
set(expected all_skipped fails passes small/numbered typed/0 typed/1)
list(TRANSFORM expected PREPEND "--gtest_filter=")
list(TRANSFORM expected APPEND ".*")
if(NOT filters STREQUAL expected)
  message(FATAL_ERROR "listed ${filters}, expected ${expected}")
endif()
string(REGEX MATCHALL "SKIP_RETURN_CODE 77 [^\n]*LABELS \\[==\\[first;second\\]==\\]" properties "${listed}")
list(LENGTH properties with_properties)
if(NOT with_properties EQUAL 6)
  message(FATAL_ERROR "${with_properties} of 6 suites have SKIP_RETURN_CODE 77 and the labels:\n${listed}")
endif()
message("gtest main and suites: checked")
