# Judges forma's OpenAI documents with the API's own definitions and Python's jsonschema.
#   cmake -DMODE=requests|invalid|responses|chunks|sent -DPYTHON=... -DVALIDATOR=.../validate.py
#         -DCORPUS=<openai_corpus> -DFIXTURES=<test/openai/fixtures> -DWORK_DIR=<dir> -P validate_corpus.cmake
# CI clones the repository with shared/ beside it; without the validator this test fails, it does not skip.

if(NOT EXISTS "${VALIDATOR}")
  message(FATAL_ERROR "the OpenAI schema validator is missing: ${VALIDATOR} "
                      "(clone the shared/ directory beside the repository)")
endif()
if(NOT PYTHON)
  message(FATAL_ERROR "no Python 3 interpreter (set Python3_EXECUTABLE)")
endif()

function(run_checked)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}${err}")
  endif()
  message(STATUS "${out}")
endfunction()

# validate(<definition> <minimum file count> <files>...): every file must be valid.
function(validate definition minimum)
  list(LENGTH ARGN count)
  if(count LESS minimum)
    message(FATAL_ERROR "expected at least ${minimum} documents for ${definition}, found ${count}")
  endif()
  run_checked(${PYTHON} ${VALIDATOR} ${definition} ${ARGN})
  message(STATUS "${count} documents valid against ${definition}")
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

if(MODE STREQUAL "requests")
  run_checked(${CORPUS} requests ${WORK_DIR})
  file(GLOB files "${WORK_DIR}/*.json")
  validate(CreateChatCompletionRequest 20 ${files})
elseif(MODE STREQUAL "invalid")
  # The control: each of these must be rejected, one by one.
  run_checked(${CORPUS} invalid ${WORK_DIR})
  file(GLOB files "${WORK_DIR}/*.json")
  list(LENGTH files count)
  if(count LESS 5)
    message(FATAL_ERROR "expected 5 invalid documents, found ${count}")
  endif()
  foreach(f IN LISTS files)
    execute_process(COMMAND ${PYTHON} ${VALIDATOR} CreateChatCompletionRequest ${f}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 1)
      message(FATAL_ERROR "the validator did not reject ${f} (exit ${rc}): ${out}${err}")
    endif()
  endforeach()
  message(STATUS "the validator rejected all ${count} invalid documents")
elseif(MODE STREQUAL "responses")
  file(GLOB responses "${FIXTURES}/responses/*.json")
  validate(CreateChatCompletionResponse 5 ${responses})
  file(GLOB errors "${FIXTURES}/errors/*.json")
  validate(ErrorResponse 3 ${errors})
elseif(MODE STREQUAL "chunks")
  run_checked(${CORPUS} chunks ${FIXTURES}/streams ${WORK_DIR})
  file(GLOB chunks "${WORK_DIR}/*.chunk.json")
  validate(CreateChatCompletionStreamResponse 30 ${chunks})
  file(GLOB errors "${WORK_DIR}/*.error.json")
  validate(ErrorResponse 2 ${errors})
elseif(MODE STREQUAL "sent")
  # What the client put on the wire, as the local server received it.
  run_checked(${CORPUS} ${WORK_DIR})
  file(GLOB files "${WORK_DIR}/sent-*.json")
  validate(CreateChatCompletionRequest 14 ${files})
else()
  message(FATAL_ERROR "unknown MODE '${MODE}'")
endif()
