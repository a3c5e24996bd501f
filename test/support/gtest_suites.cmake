# Writes the CTest file of one GoogleTest binary: a test per suite, `<binary> --gtest_filter=<suite>.*`
# (test/CMakeLists.txt, forma_add_test, says why). Run after each link:
#   cmake -D EXECUTABLE=<binary> -D OUTPUT=<file> -D WORKING_DIRECTORY=<dir> [-D LABELS=<a;b>] -P gtest_suites.cmake
execute_process(COMMAND "${EXECUTABLE}" --gtest_list_tests
                WORKING_DIRECTORY "${WORKING_DIRECTORY}"
                OUTPUT_VARIABLE listing ERROR_VARIABLE errors RESULT_VARIABLE result TIMEOUT 60)
if(NOT result EQUAL 0)
  file(REMOVE "${OUTPUT}")
  message(FATAL_ERROR "${EXECUTABLE} --gtest_list_tests failed (${result}):\n${listing}${errors}")
endif()

set(properties "SKIP_RETURN_CODE 77 WORKING_DIRECTORY [==[${WORKING_DIRECTORY}]==]")
if(LABELS)
  string(APPEND properties " LABELS [==[${LABELS}]==]")
endif()
set(script "")
string(REPLACE "\n" ";" lines "${listing}")
foreach(line IN LISTS lines)
  # A suite's line is its name and a dot (a typed or parameterized one's then says "  # TypeParam = ...");
  # its tests' lines are indented. A suite named DISABLED_ runs nothing.
  if(NOT line MATCHES "^([^ ]+)\\.( .*)?$")
    continue()
  endif()
  set(suite "${CMAKE_MATCH_1}")
  if(NOT suite MATCHES "^DISABLED_")
    string(APPEND script
      "add_test([==[${suite}]==] [==[${EXECUTABLE}]==] [==[--gtest_filter=${suite}.*]==])\n"
      "set_tests_properties([==[${suite}]==] PROPERTIES ${properties})\n")
  endif()
endforeach()
file(WRITE "${OUTPUT}" "${script}")
