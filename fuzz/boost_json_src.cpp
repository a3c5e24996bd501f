// Boost.JSON compiled into the fuzz build, with coverage and sanitizers like forma.
#include <boost/json/src.hpp>
