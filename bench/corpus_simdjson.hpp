#pragma once

// simdjson on-demand extraction of the corpus documents (corpus_simdjson.cpp), for
// read_simdjson<T> in read_simdjson.cpp.

#include "corpus_types.hpp"

#include <simdjson.h>

namespace forma_bench {

void read_document(simdjson::ondemand::document& document, twitter::document& out);
void read_document(simdjson::ondemand::document& document, citm::document& out);
void read_document(simdjson::ondemand::document& document, canada::document& out);

} // namespace forma_bench
