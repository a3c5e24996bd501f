#include "server_catalog.hpp"

#include <forma/json/json_error.hpp>

#include "../json/json_members.hpp"
#include "../json/json_rpc.hpp"
#include "../json/json_text.hpp"
#include "served_content.hpp"

#include <algorithm>

namespace forma::mcp::detail {

namespace {

namespace json = boost::json;
namespace rpc = json_detail::json_rpc;

constexpr std::size_t max_completions = 100;          // what completion/complete may give at once

void describe(json::object& entry, const std::string& title, const std::string& description, const std::string& mime_type) {
    if (!title.empty()) entry["title"] = title;
    if (!description.empty()) entry["description"] = description;
    if (!mime_type.empty()) entry["mimeType"] = mime_type;
}

json::object contents_result(const std::vector<resource_contents>& contents) {
    json::array out;
    for (const resource_contents& c : contents) out.push_back(resource_contents_json(c));
    return {{"contents", std::move(out)}};
}

} // namespace

bool server_catalog::has_tool(std::string_view name) const {
    return std::any_of(tools.begin(), tools.end(), [&](const function_tool& t) { return t.name() == name; }) ||
           std::any_of(server_tools.begin(), server_tools.end(), [&](const server_tool& t) { return t.name == name; });
}

bool server_catalog::serves(std::string_view uri) const {
    return std::any_of(resources.begin(), resources.end(), [&](const resource& r) { return r.uri == uri; }) ||
           std::any_of(templates.begin(), templates.end(), [&](const resource_template& t) { return match_uri_template(t.uri_template, uri).has_value(); });
}

std::optional<template_variables> match_uri_template(std::string_view pattern, std::string_view uri) {
    // No backtracking (a URI is the client's, of any length): a variable takes the characters up
    // to the first place the literal after it follows (the end of the URI for the template's
    // last literal), never a '/'.
    template_variables variables;
    std::size_t u = 0;
    for (std::size_t p = 0; p < pattern.size();) {
        if (pattern[p] != '{') {
            if (u >= uri.size() || uri[u] != pattern[p]) return std::nullopt;
            ++p;
            ++u;
            continue;
        }
        const std::size_t close = pattern.find('}', p);
        if (close == std::string_view::npos) return std::nullopt;
        const std::size_t next_variable = pattern.find('{', close + 1);
        const std::string_view literal = pattern.substr(close + 1, next_variable == std::string_view::npos ? std::string_view::npos : next_variable - close - 1);
        std::size_t end = std::string_view::npos;
        if (literal.empty()) {
            if (next_variable != std::string_view::npos) return std::nullopt; // two variables with nothing between
            end = uri.size();
        } else if (next_variable == std::string_view::npos) {
            if (uri.size() >= u + 1 + literal.size() && uri.ends_with(literal)) end = uri.size() - literal.size();
        } else {
            end = uri.find(literal, u + 1);
        }
        if (end == std::string_view::npos || end <= u) return std::nullopt;
        const std::string_view value = uri.substr(u, end - u);
        if (value.find('/') != std::string_view::npos) return std::nullopt;
        variables[std::string(pattern.substr(p + 1, close - p - 1))] = std::string(value);
        u = end;
        p = close + 1;
    }
    if (u != uri.size()) return std::nullopt;
    return variables;
}

json::object list_resources(const server_catalog& catalog) {
    json::array out;
    for (const resource& r : catalog.resources) {
        json::object entry{{"uri", r.uri}, {"name", r.name}};
        describe(entry, r.title, r.description, r.mime_type);
        out.push_back(std::move(entry));
    }
    return {{"resources", std::move(out)}};
}

json::object list_resource_templates(const server_catalog& catalog) {
    json::array out;
    for (const resource_template& t : catalog.templates) {
        json::object entry{{"uriTemplate", t.uri_template}, {"name", t.name}};
        describe(entry, t.title, t.description, t.mime_type);
        out.push_back(std::move(entry));
    }
    return {{"resourceTemplates", std::move(out)}};
}

json::object list_prompts(const server_catalog& catalog) {
    json::array out;
    for (const prompt& p : catalog.prompts) {
        json::object entry{{"name", p.name}};
        describe(entry, p.title, p.description, {});
        if (!p.arguments.empty()) {
            json::array arguments;
            for (const prompt_argument& a : p.arguments) {
                json::object argument{{"name", a.name}, {"required", a.required}};
                if (!a.description.empty()) argument["description"] = a.description;
                arguments.push_back(std::move(argument));
            }
            entry["arguments"] = std::move(arguments);
        }
        out.push_back(std::move(entry));
    }
    return {{"prompts", std::move(out)}};
}

boost::asio::awaitable<json::object> read_resource(const server_catalog& catalog, const json::object& params) {
    const std::string uri = json_detail::string_member(params, "uri");
    if (uri.empty()) throw rpc_failure{rpc::invalid_params, "resources/read needs params.uri"};
    // The readers are copies: the catalog may grow while they run.
    for (const resource& r : catalog.resources) {
        if (r.uri == uri) {
            const auto read = r.read;
            co_return contents_result(co_await read());
        }
    }
    for (const resource_template& t : catalog.templates) {
        if (std::optional<template_variables> variables = match_uri_template(t.uri_template, uri)) {
            const auto read = t.read;
            co_return contents_result(co_await read(uri, *variables));
        }
    }
    throw rpc_failure{resource_not_found, "no resource has the URI " + json_detail::quoted(uri)};
}

boost::asio::awaitable<json::object> get_prompt(const server_catalog& catalog, const json::object& params) {
    const std::string name = json_detail::string_member(params, "name");
    const auto found = std::find_if(catalog.prompts.begin(), catalog.prompts.end(), [&](const prompt& p) { return p.name == name; });
    if (found == catalog.prompts.end()) throw rpc_failure{rpc::invalid_params, "no prompt is named " + json_detail::quoted(name)};
    template_variables arguments;
    if (const json::value* given = params.if_contains("arguments"); given && !given->is_null()) {
        if (!given->is_object()) throw rpc_failure{rpc::invalid_params, "params.arguments must be an object of strings"};
        for (const auto& member : given->get_object()) {
            const std::string_view key = member.key();
            const json::value& value = member.value();
            const auto known = std::find_if(found->arguments.begin(), found->arguments.end(), [&](const prompt_argument& a) { return a.name == key; });
            if (known == found->arguments.end()) {
                throw rpc_failure{rpc::invalid_params, "the prompt " + json_detail::quoted(name) + " takes no argument " + json_detail::quoted(key)};
            }
            if (!value.is_string()) throw rpc_failure{rpc::invalid_params, "the argument " + json_detail::quoted(key) + " must be a string"};
            arguments.emplace(std::string(key), std::string(value.get_string()));
        }
    }
    for (const prompt_argument& a : found->arguments) {
        if (a.required && !arguments.contains(a.name)) {
            throw rpc_failure{rpc::invalid_params, "the prompt " + json_detail::quoted(name) + " needs the argument " + json_detail::quoted(a.name)};
        }
    }
    const auto get = found->get; // a copy: the catalog may grow while it runs
    const std::string description = found->description;
    std::vector<prompt_message> messages;
    try {
        messages = co_await get(arguments);
    } catch (const json_error& e) { // arguments read into a struct (make_prompt) that do not fit it
        throw rpc_failure{rpc::invalid_params, "the arguments of the prompt " + json_detail::quoted(name) + " do not fit: " + json_detail::valid_utf8(e.what())};
    }
    json::array out;
    for (const prompt_message& m : messages) {
        if (m.role != chat_role::user() && m.role != chat_role::assistant()) {
            throw rpc_failure{rpc::internal_error, "the prompt " + json_detail::quoted(name) + " made a message whose role is neither user nor assistant"};
        }
        out.push_back(json::object{{"role", m.role.value()}, {"content", content_block_json(m.content)}});
    }
    json::object result{{"messages", std::move(out)}};
    if (!description.empty()) result["description"] = description;
    co_return result;
}

json::object complete(const server_catalog& catalog, const json::object& params) {
    const json::value* ref = params.if_contains("ref");
    const json::value* argument = params.if_contains("argument");
    if (!ref || !ref->is_object() || !argument || !argument->is_object()) {
        throw rpc_failure{rpc::invalid_params, "completion/complete needs params.ref and params.argument objects"};
    }
    const std::string type = json_detail::string_member(ref->get_object(), "type");
    const std::string name = json_detail::string_member(argument->get_object(), "name");
    const std::string value = json_detail::string_member(argument->get_object(), "value");
    std::function<std::vector<std::string>(const std::string&, const std::string&)> completer;
    if (type == "ref/prompt") {
        const std::string prompt_name = json_detail::string_member(ref->get_object(), "name");
        const auto p = std::find_if(catalog.prompts.begin(), catalog.prompts.end(), [&](const prompt& x) { return x.name == prompt_name; });
        if (p == catalog.prompts.end()) throw rpc_failure{rpc::invalid_params, "no prompt is named " + json_detail::quoted(prompt_name)};
        completer = p->complete;
    } else if (type == "ref/resource") {
        const std::string uri = json_detail::string_member(ref->get_object(), "uri");
        const auto t = std::find_if(catalog.templates.begin(), catalog.templates.end(), [&](const resource_template& x) { return x.uri_template == uri; });
        if (t == catalog.templates.end()) throw rpc_failure{rpc::invalid_params, "no resource template is " + json_detail::quoted(uri)};
        completer = t->complete;
    } else {
        throw rpc_failure{rpc::invalid_params, "params.ref.type must be ref/prompt or ref/resource"};
    }
    std::vector<std::string> values = completer ? completer(name, value) : std::vector<std::string>{};
    const std::size_t total = values.size();
    json::array out;
    for (std::size_t i = 0; i < std::min(total, max_completions); ++i) out.push_back(json::string(json_detail::valid_utf8(values[i])));
    return {{"completion", {{"values", std::move(out)}, {"total", total}, {"hasMore", total > max_completions}}}};
}

} // namespace forma::mcp::detail
