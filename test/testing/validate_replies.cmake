# Judges the local model server's replies with the OpenAI API's own definitions (Python's jsonschema).
#   cmake -DPYTHON=... -DVALIDATOR=.../validate.py -DCORPUS=<forma_model_server_corpus> -DWORK_DIR=<dir>
#         -P validate_replies.cmake
# Without the validator (shared/ beside the repository) this test fails, it does not skip.

if(NOT EXISTS "${VALIDATOR}")
  message(FATAL_ERROR "the OpenAI schema validator is missing: ${VALIDATOR}")
endif()
if(NOT PYTHON)
  message(FATAL_ERROR "no Python 3 interpreter (set Python3_EXECUTABLE)")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
execute_process(COMMAND ${CORPUS} ${WORK_DIR} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the corpus failed (${rc}): ${out}${err}")
endif()

# definition -> the least number of documents expected
foreach(pair IN ITEMS CreateChatCompletionResponse:10 CreateChatCompletionStreamResponse:40 ErrorResponse:20
                      Response:20 ResponseStreamEvent:100)
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 definition)
  list(GET pair 1 minimum)
  file(GLOB files "${WORK_DIR}/*.${definition}.json")
  list(LENGTH files count)
  if(count LESS minimum)
    message(FATAL_ERROR "expected at least ${minimum} documents for ${definition}, found ${count}")
  endif()
  execute_process(COMMAND ${PYTHON} ${VALIDATOR} ${definition} ${files}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "invalid ${definition} documents (${rc}):\n${out}${err}")
  endif()
  message(STATUS "${count} documents valid against ${definition}")
endforeach()
