# Runs an example with OPENAI_API_KEY and OPENAI_BASE_URL (and ANTHROPIC_*) unset, so that it uses the local model
# server, and checks what it prints:
#
#   cmake -DPROGRAM=<exe> [-DARGS=<arg;...>] -DEXPECTED=<file> [-DEXPECT_FAILURE=ON] -P check_output.cmake
#
# The exit status must be 0 (non-zero with EXPECT_FAILURE). Each line of EXPECTED is a CMake
# regular expression that must match the output (stdout and stderr as printed), in order: each
# after the previous match; "\n" in it stands for a line break. A line starting with "!" must
# match nowhere; "#" starts a comment.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/pop_line.cmake)

unset(ENV{OPENAI_API_KEY})
unset(ENV{OPENAI_BASE_URL})
unset(ENV{ANTHROPIC_API_KEY})
unset(ENV{ANTHROPIC_BASE_URL})
execute_process(COMMAND ${PROGRAM} ${ARGS}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 90)
message("${output}")

set(failures "")
if(EXPECT_FAILURE)
  if(status STREQUAL "0")
    string(APPEND failures "  exit status 0, expected a failure\n")
  elseif(NOT status MATCHES "^[0-9]+$")
    string(APPEND failures "  ${status}\n") # a timeout or a crash, not an orderly failure
  endif()
elseif(NOT status STREQUAL "0")
  string(APPEND failures "  exit status: ${status}\n")
endif()

file(READ "${EXPECTED}" expected)
set(rest "${output}")
while(NOT expected STREQUAL "")
  pop_line(expected line)
  if(line STREQUAL "" OR line MATCHES "^#")
    continue()
  endif()
  string(REPLACE "\\n" "\n" line "${line}")

  if(line MATCHES "^!")
    string(SUBSTRING "${line}" 1 -1 pattern)
    if(output MATCHES "${pattern}")
      string(APPEND failures "  printed what it must not: ${pattern}\n")
    endif()
    continue()
  endif()

  string(REGEX MATCH "${line}" matched "${rest}")
  if(matched STREQUAL "")
    string(APPEND failures "  missing (in this order): ${line}\n")
    continue()
  endif()
  # Go on after this match (the first occurrence of the matched text is where the regex matched).
  string(FIND "${rest}" "${matched}" at)
  string(LENGTH "${matched}" length)
  math(EXPR after "${at} + ${length}")
  string(SUBSTRING "${rest}" ${after} -1 rest)
endwhile()

if(NOT failures STREQUAL "")
  message(FATAL_ERROR "${PROGRAM} ${ARGS}: unexpected output\n${failures}")
endif()
