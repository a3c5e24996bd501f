# pop_line(<text variable> <line variable>): moves the first line of the text (without its line
# break) into the line variable.
macro(pop_line text line)
  string(FIND "${${text}}" "\n" pop_line_end)
  if(pop_line_end EQUAL -1)
    set(${line} "${${text}}")
    set(${text} "")
  else()
    string(SUBSTRING "${${text}}" 0 ${pop_line_end} ${line})
    math(EXPR pop_line_next "${pop_line_end} + 1")
    string(SUBSTRING "${${text}}" ${pop_line_next} -1 ${text})
  endif()
endmacro()
