# Installs the built forma into a fresh prefix, then configures, builds and runs each consumer:
# everything (forma::forma); each part alone (parts/<part>.cpp linked with forma::<part> only,
# run, and hiredis on no link line but redis's); json alone again with clang when there is one.
# Variables: BUILD_DIR (forma's build tree), SOURCE_DIR (this folder), WORK_DIR (scratch).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)

# Unoptimized (-O0, no debug information): what is checked is that each links and runs, and
# the optimizer would take most of the test's time.
function(consume name source parts)
  execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/${name}
                          -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_FLAGS_DEBUG=-O0
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
  execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/${name} --parallel 2 COMMAND_ERROR_IS_FATAL ANY OUTPUT_QUIET)
  if(parts STREQUAL "each")
    file(GLOB sources RELATIVE ${SOURCE_DIR}/parts ${SOURCE_DIR}/parts/*.cpp)
    foreach(source IN LISTS sources)
      string(REPLACE ".cpp" "" part ${source})
      run_consumer(${name}/consumer_${part} ${part})
      # Only forma::redis brings hiredis: a part that links it needs a library its users may not have.
      file(READ ${WORK_DIR}/${name}/CMakeFiles/consumer_${part}.dir/link.txt linked)
      string(FIND "${linked}" "hiredis" at)
      if(part STREQUAL "redis" AND at EQUAL -1)
        message(FATAL_ERROR "consumer_redis links no hiredis: ${linked}")
      elseif(NOT part STREQUAL "redis" AND NOT at EQUAL -1)
        message(FATAL_ERROR "forma::${part} links hiredis: ${linked}")
      endif()
    endforeach()
  else()
    run_consumer(${name}/consumer ${name})
  endif()
endfunction()

function(run_consumer program name)
  execute_process(COMMAND ${WORK_DIR}/${program} OUTPUT_VARIABLE out RESULT_VARIABLE failed)
  string(STRIP "${out}" out)
  if(failed)
    message(FATAL_ERROR "the ${name} consumer failed (${failed}): ${out}")
  endif()
  message(STATUS "${name} consumer printed: ${out}")
endfunction()

consume(all parts/openai.cpp "")
consume(parts "" "each")
# Another compiler: no warning (json alone, the quickest).
find_program(clang clang++-14)
if(clang)
  consume(json_clang parts/json.cpp "json" -DCMAKE_CXX_COMPILER=${clang})
endif()
