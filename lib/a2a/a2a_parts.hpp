#pragma once
// A2A parts (text, data, file) and forma contents, both ways.

#include <forma/model/chat_message.hpp>
#include <forma/model/content.hpp>

#include <boost/json/array.hpp>
#include <boost/json/value.hpp>

#include <vector>

namespace forma::a2a::detail {

/// The contents of `messages` as the parts of one A2A message: text as text, data_content as
/// a file with bytes, uri_content as a file by URI, an approval's answer as a data part
/// {"type": "function_approval_response", "id", "approved", "reason"?}. Other contents (tool
/// activity, reasoning) are not sent.
boost::json::array to_parts(const std::vector<chat_message>& messages);

/// An A2A part as content: text as text, data as its JSON text (so that run<T> reads it),
/// a file as data_content (bytes) or uri_content; another kind as unknown_content. Each keeps
/// the part in raw_representation.
content from_part(const boost::json::value& part);

/// Every part of `parts` (an array, else none).
std::vector<content> from_parts(const boost::json::value* parts);

} // namespace forma::a2a::detail
