// The co_await forms that g++ 12.2 compiles right, run against the local model server: forma's
// public coroutines called the natural ways (docs/guide.md, "A GCC 12 bug to avoid in your
// coroutines"). The forms it miscompiles crash, so they are lint cases (test/lint/gcc12_forms.txt).
// Built twice by g++, at -O0 and -O2; each form is its own CTest entry:
//   forma_gcc12_forms_O0 a1    (or _O2; a form is named by the letter of its row group and a number)
#include "forms.hpp"

#include <cstring>
#include <memory>

// Baseline A: the options named first, outside the co_await.
boost::asio::awaitable<void> form_a0(forms::fixture& f) {
    forma::agent_run_options options{.max_output_retries = 0};
    forma::agent_response<Person> r = co_await f.agent.run<Person>(forms::person_prompt, nullptr, options);
    forms::check_person(r.result());

    std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "hello")};
    forma::chat_options chat{.model = "m"};
    forma::agent_response<> c = co_await f.client.get_response(messages, chat);
    forms::check(c.text() == "You said: hello", "text is \"" + c.text() + "\"");
}

// Form A1: a braced (designated) options argument inside the co_await.
boost::asio::awaitable<void> form_a1(forms::fixture& f) {
    forma::agent_response<Person> r = co_await f.agent.run<Person>(forms::person_prompt, nullptr, {.max_output_retries = 0});
    forms::check_person(r.result());
}

// Form A4: the same temporary as A2, spelled with parentheses (the guide's safe spelling).
boost::asio::awaitable<void> form_a4(forms::fixture& f) {
    std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "hello")};
    forma::agent_response<> r = co_await f.client.get_response(messages, forma::chat_options());
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Form A5: agent.run with its defaulted arguments (session_ref = {}, agent_run_options = {}).
boost::asio::awaitable<void> form_a5(forms::fixture& f) {
    forma::agent_response<> r = co_await f.agent.run("hello");
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
    forma::agent_response<Person> p = co_await f.agent.run<Person>(forms::person_prompt);
    forms::check_person(p.result());
}

// Form A8: a value-initialised agent_run_options spelled with braces inside the co_await.
boost::asio::awaitable<void> form_a8(forms::fixture& f) {
    forma::agent_response<> r = co_await f.agent.run("hello", nullptr, forma::agent_run_options{});
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Form A10: a non-aggregate temporary (a std::string expression) as the awaited call's argument.
boost::asio::awaitable<void> form_a10(forms::fixture& f) {
    const std::string who = "hel";
    forma::agent_response<> r = co_await f.agent.run(who + "lo");
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Form A11: empty braces for the session, the options named.
boost::asio::awaitable<void> form_a11(forms::fixture& f) {
    forma::agent_run_options options;
    forma::agent_response<> r = co_await f.agent.run("hello", {}, options);
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Safe spelling of A6/A7: the messages named first, outside the co_await.
boost::asio::awaitable<void> form_a12(forms::fixture& f) {
    std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "hello")};
    forma::agent_response<> r = co_await f.agent.run(messages);
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
    forma::agent_response<> c = co_await f.client.get_response(messages);
    forms::check(c.text() == "You said: hello", "text is \"" + c.text() + "\"");
}

// Form B2 (safe spelling of B1): the executor awaited into a named variable first.
boost::asio::awaitable<void> form_b2(forms::fixture& f) {
    auto ex = co_await boost::asio::this_coro::executor;
    forma::openai::chat_client client(ex, {
        .base_url = f.server.base_url(), .api_key = "k", .model = "forma-local",
        .trust = {.ca_certificates = f.server.certificate_pem()}});
    std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "hello")};
    forma::agent_response<> r = co_await client.get_response(messages);
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Form B3: a constructor with an awaited argument, the options named (no braces in the statement).
boost::asio::awaitable<void> form_b3(forms::fixture& f) {
    forma::openai::client_options options = forms::fixture::client_options(f.server);
    forma::openai::chat_client client(co_await boost::asio::this_coro::executor, options);
    std::vector<forma::chat_message> messages{forma::chat_message(forma::chat_role::user(), "hello")};
    forma::agent_response<> r = co_await client.get_response(messages);
    forms::check(r.text() == "You said: hello", "text is \"" + r.text() + "\"");
}

// Safe spelling of C1-C3: an if statement, each branch awaiting into the named variable.
boost::asio::awaitable<void> form_c4(forms::fixture& f) {
    for (bool c : {true, false}) {
        forma::agent_response<> r;
        if (c)
            r = co_await f.agent.run("a");
        else
            r = co_await f.agent.run("b");
        const std::string want = c ? "You said: a" : "You said: b";
        forms::check(r.text() == want, "text is \"" + r.text() + "\"");
    }
}

// Safe spelling of C2: the await into a named variable, the conditional in the next statement.
boost::asio::awaitable<void> form_c5(forms::fixture& f) {
    forma::agent_response<> cached(forma::chat_message(forma::chat_role::assistant(), "cached"));
    for (bool have : {false, true}) {
        std::optional<forma::agent_response<>> fresh;
        if (!have)
            fresh = co_await f.agent.run("b");
        const forma::agent_response<>& r = have ? cached : *fresh;
        const std::string want = have ? "cached" : "You said: b";
        forms::check(r.text() == want, "text is \"" + r.text() + "\"");
    }
}

// Form C6: a conditional expression inside the awaited call's arguments (no co_await in a branch).
boost::asio::awaitable<void> form_c6(forms::fixture& f) {
    for (bool c : {true, false}) {
        forma::agent_response<> r = co_await f.agent.run(c ? "a" : "b");
        const std::string want = c ? "You said: a" : "You said: b";
        forms::check(r.text() == want, "text is \"" + r.text() + "\"");
    }
}

// Safe spelling of C7: the conditional in its own statement, its value named.
boost::asio::awaitable<void> form_c8(forms::fixture& f) {
    for (bool c : {true, false}) {
        std::string prompt = c ? std::string("a") : std::string("b");
        forma::agent_response<> r = co_await f.agent.run(prompt);
        const std::string want = c ? "You said: a" : "You said: b";
        forms::check(r.text() == want, "text is \"" + r.text() + "\"");
    }
}

// Safe spelling of D1-D4: await into named variables, then brace them.
struct pair_of_answers {
    forma::agent_response<> first;
    forma::agent_response<> second;
};

boost::asio::awaitable<void> form_d5(forms::fixture& f) {
    forma::agent_response<> a = co_await f.agent.run("a");
    forma::agent_response<> b = co_await f.agent.run("b");
    pair_of_answers p{std::move(a), std::move(b)};
    forms::check(p.first.text() == "You said: a", "first is \"" + p.first.text() + "\"");
    forms::check(p.second.text() == "You said: b", "second is \"" + p.second.text() + "\"");
    std::string t = (co_await f.agent.run("a")).text();
    auto v = std::vector<std::string>{t, "x"};
    forms::check(v.size() == 2 && v[0] == "You said: a" && v[1] == "x", "v[0] is \"" + v.at(0) + "\"");
}

// Form E1: range-for over a data member of the awaited temporary (lifetime-extended by the standard:
boost::asio::awaitable<void> form_e1(forms::fixture& f) {
    std::string all;
    for (const auto& m : (co_await f.agent.run("hello")).messages)
        all += m.text();
    forms::check(all == "You said: hello", "text is \"" + all + "\"");
}

// Form E3: range-for over a vector a coroutine returns by value.
boost::asio::awaitable<std::vector<std::string>> make_list_e3(forma::agent& agent) {
    std::vector<std::string> list;
    forma::agent_response<> a = co_await agent.run("a");
    list.push_back(a.text());
    forma::agent_response<> b = co_await agent.run("b");
    list.push_back(b.text());
    co_return list;
}

boost::asio::awaitable<void> form_e3(forms::fixture& f) {
    std::string all;
    for (auto& x : co_await make_list_e3(f.agent))
        all += x + ";";
    forms::check(all == "You said: a;You said: b;", "texts are \"" + all + "\"");
}

// Safe spelling of E1-E3: await into a named variable, then loop.
boost::asio::awaitable<void> form_e4(forms::fixture& f) {
    forma::agent_response<> r = co_await f.agent.run("hello");
    std::string all;
    for (const auto& m : r.messages)
        all += m.text();
    forms::check(all == "You said: hello", "text is \"" + all + "\"");
    forma::agent_response<Person> p = co_await f.agent.run<Person>(forms::person_prompt);
    std::size_t n = 0;
    for (const auto& s : p.result().skills)
        n += s.empty() ? 0 : 1;
    forms::check_person(p.result());
}

// Form F1: co_spawn of a lambda capturing by reference, awaiting agent.run as a statement.
boost::asio::awaitable<void> form_f1(forms::fixture& f) {
    auto ex = co_await boost::asio::this_coro::executor;
    forms::event done(ex);
    forma::chat_client_agent& agent = f.agent;
    boost::asio::co_spawn(ex, [&]() -> boost::asio::awaitable<void> {
        co_await agent.run("hello");
        done.set();
    }, boost::asio::detached);
    co_await done.wait();
    const auto requests = f.server.requests();
    forms::check(requests.size() == 1, std::to_string(requests.size()) + " requests");
    forms::check(requests[0].body.find("hello") != std::string::npos, "request without the prompt");
}

// Form F2: co_spawn of a lambda capturing by value (a pointer, a string, a shared result).
#include <memory>

boost::asio::awaitable<void> form_f2(forms::fixture& f) {
    auto ex = co_await boost::asio::this_coro::executor;
    auto done = std::make_shared<forms::event>(ex);
    auto text = std::make_shared<std::string>();
    forma::agent* agent = &f.agent;
    std::string prompt = "hello";
    boost::asio::co_spawn(ex, [agent, prompt, done, text]() -> boost::asio::awaitable<void> {
        forma::agent_response<> r = co_await agent->run(prompt);
        *text = r.text();
        done->set();
    }, boost::asio::detached);
    co_await done->wait();
    forms::check(*text == "You said: hello", "text is \"" + *text + "\"");
}

// Form F3: co_spawn of a lambda whose co_await has a braced options argument (form A1 in a lambda).
boost::asio::awaitable<void> form_f3(forms::fixture& f) {
    auto ex = co_await boost::asio::this_coro::executor;
    forms::event done(ex);
    std::optional<Person> person;
    boost::asio::co_spawn(ex, [&]() -> boost::asio::awaitable<void> {
        forma::agent_response<Person> r = co_await f.agent.run<Person>(forms::person_prompt, nullptr, {.max_output_retries = 0});
        person = r.result();
        done.set();
    }, boost::asio::detached);
    co_await done.wait();
    forms::check(person.has_value(), "no person");
    forms::check_person(*person);
}

// Safe spelling of F3: the options named inside the lambda.
boost::asio::awaitable<void> form_f4(forms::fixture& f) {
    auto ex = co_await boost::asio::this_coro::executor;
    forms::event done(ex);
    std::optional<Person> person;
    boost::asio::co_spawn(ex, [&]() -> boost::asio::awaitable<void> {
        forma::agent_run_options options{.max_output_retries = 0};
        forma::agent_response<Person> r = co_await f.agent.run<Person>(forms::person_prompt, nullptr, options);
        person = r.result();
        done.set();
    }, boost::asio::detached);
    co_await done.wait();
    forms::check(person.has_value(), "no person");
    forms::check_person(*person);
}

namespace {

struct named_form {
    const char* id;
    boost::asio::awaitable<void> (*run)(forms::fixture&);
};

constexpr named_form all_forms[] = {
    {"a0", form_a0},
    {"a1", form_a1},
    {"a4", form_a4},
    {"a5", form_a5},
    {"a8", form_a8},
    {"a10", form_a10},
    {"a11", form_a11},
    {"a12", form_a12},
    {"b2", form_b2},
    {"b3", form_b3},
    {"c4", form_c4},
    {"c5", form_c5},
    {"c6", form_c6},
    {"c8", form_c8},
    {"d5", form_d5},
    {"e1", form_e1},
    {"e3", form_e3},
    {"e4", form_e4},
    {"f1", form_f1},
    {"f2", form_f2},
    {"f3", form_f3},
    {"f4", form_f4},
};

} // namespace

int main(int argc, char** argv) {
    for (const named_form& form : all_forms)
        if (argc == 2 && std::strcmp(argv[1], form.id) == 0) return forms::run(form.id, form.run);
    std::fprintf(stderr, "usage: forma_gcc12_forms_O0 FORM (a0, a1, ... as in the source)\n");
    return 2;
}
