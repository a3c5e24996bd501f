# Checks that README.md's sample output is what the quickstart really prints: every non-empty
# line of the ```text block after "Abridged:" must be a whole line of the quickstart's output,
# in the same order (lines between them may be left out: the sample is abridged).
#
#   cmake -DPROGRAM=<quickstart> -DREADME=<README.md> -P check_readme_sample.cmake
#
# The quickstart runs as example.quickstart runs it: OPENAI_API_KEY and OPENAI_BASE_URL unset,
# so against the local model server.
cmake_minimum_required(VERSION 3.25)
include(${CMAKE_CURRENT_LIST_DIR}/pop_line.cmake)

unset(ENV{OPENAI_API_KEY})
unset(ENV{OPENAI_BASE_URL})
execute_process(COMMAND ${PROGRAM}
                RESULT_VARIABLE status OUTPUT_VARIABLE output ERROR_VARIABLE output TIMEOUT 90)
if(NOT status STREQUAL "0")
  message(FATAL_ERROR "${PROGRAM} failed (${status}), so README.md's sample cannot be checked:\n${output}")
endif()

file(READ "${README}" readme)
string(FIND "${readme}" "Abridged:" intro)
if(intro EQUAL -1)
  message(FATAL_ERROR "${README}: no \"Abridged:\" before the quickstart's sample output")
endif()
string(SUBSTRING "${readme}" ${intro} -1 readme)
set(fence "```text\n")
string(FIND "${readme}" "${fence}" open)
if(open EQUAL -1)
  message(FATAL_ERROR "${README}: no ```text block after \"Abridged:\"")
endif()
string(LENGTH "${fence}" fence_length)
math(EXPR sample_start "${open} + ${fence_length}")
string(SUBSTRING "${readme}" ${sample_start} -1 sample)
string(FIND "${sample}" "```" close)
if(close EQUAL -1)
  message(FATAL_ERROR "${README}: the ```text block after \"Abridged:\" is not closed")
endif()
string(SUBSTRING "${sample}" 0 ${close} sample)

# Lines are compared whole: each is searched for between line breaks, after the previous match.
set(rest "\n${output}\n")
set(missing "")
while(NOT sample STREQUAL "")
  pop_line(sample line)
  if(line STREQUAL "")
    continue()
  endif()
  string(FIND "${rest}" "\n${line}\n" at)
  if(at EQUAL -1)
    string(APPEND missing "  ${line}\n")
    continue()
  endif()
  string(LENGTH "${line}" length)
  math(EXPR after "${at} + ${length} + 1") # keeps the line break that ends the matched line
  string(SUBSTRING "${rest}" ${after} -1 rest)
endwhile()

if(NOT missing STREQUAL "")
  message("The quickstart printed:\n${output}")
  # Indented lines are not rewrapped: each missing line is shown as it is.
  message(FATAL_ERROR "README.md's sample output (the ```text block after \"Abridged:\") shows lines the "
                      "quickstart does not print, or not in this order:\n${missing}"
                      "Make the sample the quickstart's real output, printed above.")
endif()
