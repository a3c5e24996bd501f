# Installs the built forma into a fresh prefix, then configures, builds and runs each consumer:
# everything (forma::forma), json alone, and json + agent + openai (without hiredis); json alone
# again with clang when there is one.
# Variables: BUILD_DIR (forma's build tree), SOURCE_DIR (this folder), WORK_DIR (scratch).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)

function(consume name source parts)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/${name}
                          -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                          "-DFORMA_PARTS=${parts}" -DCONSUMER_SOURCE=${source} ${ARGN}
                  COMMAND_ERROR_IS_FATAL ANY OUTPUT_VARIABLE configured ERROR_VARIABLE said)
  # One warning line for a g++ 12 consumer (the coroutine forms it miscompiles), none otherwise.
  string(REGEX MATCH "consumer compiler: [^\n]*" compiler "${configured}")
  string(REGEX MATCHALL "forma warning:" warnings "${said}")
  list(LENGTH warnings count)
  set(expected 0)
  if(compiler MATCHES "GNU 12\\.")
    set(expected 1)
  endif()
  if(NOT count EQUAL expected)
    message(FATAL_ERROR "${name}: ${compiler}, ${count} forma warnings instead of ${expected}: ${said}")
  endif()
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
  execute_process(COMMAND ${WORK_DIR}/${name}/consumer OUTPUT_VARIABLE out COMMAND_ERROR_IS_FATAL ANY)
  string(STRIP "${out}" out)
  message(STATUS "${name} consumer printed: ${out}")
endfunction()

consume(all openai_consumer.cpp "")
consume(json json_consumer.cpp "json")
consume(openai openai_consumer.cpp "json;agent;openai")
# Another compiler: no warning (json alone, the quickest).
find_program(clang clang++-14)
if(clang)
  consume(json_clang json_consumer.cpp "json" -DCMAKE_CXX_COMPILER=${clang})
endif()
