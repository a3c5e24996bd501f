#include <forma/json/detail/partial_builder.hpp>

#include <utility>

// GCC's vectorizer copies a slot (two pointers, returned in two registers) through the stack:
// two 8-byte stores, then one 16-byte load, which waits for both stores to leave the store
// buffer. A quarter of open()'s time went there.
// (push and pop: in a unity build the sources after this one share its translation unit).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC push_options
#pragma GCC optimize("no-tree-slp-vectorize")
#endif

namespace forma::json_detail {

slot partial_builder::target_of_new_value(bool null) {
    slot target;
    if (!root_taken_) [[unlikely]] {
        root_taken_ = true;
        target = root_;
    } else {
        const frame& f = frames_.back();
        switch (f.how) {
        case mode::fill: {
            const bool element = f.target.ops->kind == slot_kind::sequence;
            target = element ? f.target.ops->element(f.target.node) : pending_;
            break;
        }
        case mode::wrapper:
            target = pending_;
            break;
        default:
            return {}; // inside a value skipped or kept whole
        }
    }
    pending_ = {};
    while (target && target.ops->kind == slot_kind::nullable) target = target.ops->resolve(target.node, null);
    return target;
}

bool partial_builder::open(char bracket, std::size_t begin) {
    if (passing_through()) {
        ++frames_.back().depth;
        return true;
    }
    // A wrapped answer is {"data": <T>}: the outer object is not T's.
    if (wrapped_ && !root_taken_ && bracket == '{') {
        root_taken_ = true;
        frames_.push_back({root_, mode::wrapper});
        return true;
    }
    const slot target = target_of_new_value(false);
    if (!target) {
        frames_.push_back({{}, mode::skip});
        return true;
    }
    const slot_kind k = target.ops->kind;
    if (k == slot_kind::whole) {
        frames_.push_back({target, mode::whole, 1, begin});
        return true;
    }
    if ((bracket == '{' && k != slot_kind::object) || (bracket == '[' && k != slot_kind::sequence)) return false;
    target.ops->open(target.node);
    frames_.push_back({target, mode::fill});
    return true;
}

bool partial_builder::close(char, std::size_t end) {
    frame& f = frames_.back();
    if ((f.how == mode::skip || f.how == mode::whole) && --f.depth > 0) return true;
    const frame done = f;
    frames_.pop_back();
    switch (done.how) {
    case mode::whole: return done.target.ops->whole(done.target.node, document_.view().substr(done.begin, end - done.begin));
    case mode::fill: done.target.ops->close(done.target.node); return true;
    default: return true;
    }
}

bool partial_builder::key(std::string_view name) {
    frame& f = frames_.back(); // a member name is read inside an object: there is a frame
    if (f.how != mode::fill) [[unlikely]] {
        if (f.how != mode::wrapper) return true; // inside a value skipped or kept whole
        if (name != "data") skipped_members_ = true;
        else if (std::exchange(f.seen, 1) != 0) return false;
        else pending_ = f.target;
        return true;
    }
    pending_ = f.target.ops->member(f.target.node, name, f.next_member);
    if (!pending_) {
        skipped_members_ = true;
        return true;
    }
    const std::size_t index = f.next_member - 1;
    if (index >= 64) {
        skipped_members_ = true; // not tracked: from_json decides about duplicates
        return true;
    }
    const std::uint64_t bit = std::uint64_t{1} << index;
    if (f.seen & bit) return false; // given twice
    f.seen |= bit;
    return true;
}

bool partial_builder::begin_string(std::size_t begin, std::string*& text) {
    text = nullptr;
    string_mode_ = mode::skip;
    string_target_ = target_of_new_value(false);
    if (!string_target_) return true;
    string_begin_ = begin;
    switch (string_target_.ops->kind) {
    case slot_kind::string:
        string_mode_ = mode::fill;
        text = string_target_.ops->text(string_target_.node);
        return true;
    case slot_kind::enumeration:
        string_mode_ = mode::fill;
        enum_name_.clear();
        text = &enum_name_;
        return true;
    case slot_kind::whole:
        string_mode_ = mode::whole;
        return true;
    default:
        return false;
    }
}

bool partial_builder::end_string(std::size_t end) {
    switch (string_mode_) {
    case mode::skip: return true;
    case mode::whole:
        return string_target_.ops->whole(
            string_target_.node, document_.view().substr(string_begin_, end - string_begin_));
    default: break;
    }
    if (string_target_.ops->kind == slot_kind::enumeration)
        return string_target_.ops->enumerator(string_target_.node, enum_name_);
    string_target_.ops->close(string_target_.node);
    return true;
}

bool partial_builder::number(const scanned_number& number, std::size_t begin, std::size_t end) {
    const slot target = target_of_new_value(false);
    if (!target) return true;
    if (target.ops->kind == slot_kind::whole)
        return target.ops->whole(target.node, document_.view().substr(begin, end - begin));
    return target.ops->kind == slot_kind::number && target.ops->number(target.node, number);
}

bool partial_builder::literal(char literal, std::size_t begin, std::size_t end) {
    const slot target = target_of_new_value(literal == 'n');
    if (!target) return true; // skipped, or a nullable took the null
    if (target.ops->kind == slot_kind::whole)
        return target.ops->whole(target.node, document_.view().substr(begin, end - begin));
    return literal != 'n' && target.ops->kind == slot_kind::boolean && target.ops->boolean(target.node, literal == 't');
}

} // namespace forma::json_detail

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC pop_options
#endif
