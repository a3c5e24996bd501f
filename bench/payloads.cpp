#include "payloads.hpp"

#include <array>
#include <charconv>
#include <cstdint>
#include <span>
#include <string_view>

namespace forma_bench {
namespace {

/// splitmix64: tiny, and unlike the standard distributions the same on every platform.
class random_source {
public:
    explicit random_source(std::uint64_t seed) : state_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15u);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
        return z ^ (z >> 31);
    }
    /// In [low, high].
    int between(int low, int high) {
        return low + static_cast<int>(next() % static_cast<std::uint64_t>(high - low + 1));
    }
    bool chance(int percent) { return between(0, 99) < percent; }
    std::string_view pick(std::span<const std::string_view> words) {
        return words[next() % words.size()];
    }

private:
    std::uint64_t state_;
};

constexpr std::string_view common_words[] = {
    "the",         "a",        "with",      "for",     "and",      "durable",    "compact",
    "wireless",    "steel",    "cotton",    "battery", "lasts",    "hours",      "easy",
    "to",          "clean",    "fits",      "most",    "kitchens", "quiet",      "motor",
    "lightweight", "frame",    "premium",   "finish",  "includes", "two",        "spare",
    "filters",     "designed", "in",        "Berlin",  "made",     "from",       "recycled",
    "aluminium",   "water",    "resistant", "ideal",   "travel",   "office",     "home",
    "outdoor",     "use",      "warranty",  "covers",  "parts",    "labour",     "setup",
    "takes",       "minutes",  "no",        "tools",   "needed",   "adjustable", "height",
    "soft",        "touch",    "buttons",   "USB-C",   "charging", "cable",      "included",
    "of",          "on",       "is"};

// Raw UTF-8 of one to four bytes per code point, including a code point outside the BMP
// (written as a surrogate pair when escaped).
constexpr std::string_view non_ascii_words[] = {
    "café",     "naïve", "Größe", "über",   "façade", "smörgåsbord",
    "piñata",   "Ærø",   "crème", "日本製", "高品質", "Привет",
    "ελληνικά", "€",     "✓",     "🎧",      "½-inch", "São Paulo"};

constexpr std::string_view title_words[] = {
    "Ultra",    "Pro",   "Mini",    "Classic", "Smart",   "Eco",        "Travel",
    "Studio",   "Max",   "Air",     "Kettle",  "Blender", "Headphones", "Backpack",
    "Lamp",     "Chair", "Speaker", "Router",  "Thermos", "Drill",      "Camera",
    "Keyboard", "Mouse", "Monitor", "Jacket",  "Sneakers"};

constexpr std::string_view categories[] = {
    "Electronics", "Home & Kitchen", "Küche & Haushalt", "Outdoor", "Office",
    "Fashion",     "Tools",          "Toys & Games",     "Audio",   "Sports"};

constexpr std::string_view tag_words[] = {"bestseller", "new",      "eco-friendly", "gift",
                                          "sale",       "limited",  "bundle",       "refurbished",
                                          "vegan",      "handmade", "énergie-A+++", "售完即止"};

constexpr std::string_view authors[] = {
    "Jane Doe", "José Álvarez", "Zoë Brontë",      "Łukasz Wójcik", "山田太郎",
    "Ada L.",   "Mike O'Neil",  "Anna-Lena Maier", "Chidi Okafor",  "Priya Raman"};

constexpr std::string_view manufacturers[] = {"Acme Corp", "Nordwerk GmbH", "Ōkami Industries",
                                              "Blue Harbor Ltd.", "Société Générale du Son"};

constexpr std::string_view currencies[] = {"USD", "EUR", "GBP", "JPY"};

/// A decoded sentence of `words` words: mostly English, sometimes non-ASCII, now and
/// then a "quoted phrase", a newline, a tab or a backslash (all escaped in JSON).
std::string sentence(random_source& rng, int words) {
    std::string out;
    for (int i = 0; i < words; ++i) {
        if (i > 0) out += rng.chance(3) ? '\n' : ' ';
        if (rng.chance(8))
            out += rng.pick(non_ascii_words);
        else if (rng.chance(3))
            out.append("\"").append(rng.pick(common_words)).append("\"");
        else if (rng.chance(1))
            out += "C:\\drivers\tv2";
        else
            out += rng.pick(common_words);
    }
    out += '.';
    return out;
}

void append_hex4(std::string& out, std::uint32_t unit, bool upper) {
    const char* digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
    out += "\\u";
    for (int shift = 12; shift >= 0; shift -= 4)
        out += digits[(unit >> shift) & 0xF];
}

/// Appends s as a JSON string. With `escape_all`, non-ASCII code points become \u
/// escapes (surrogate pairs past U+FFFF) and '/' becomes "\/", as some encoders do.
void append_string(std::string& out, std::string_view s, bool escape_all = false) {
    out += '"';
    for (std::size_t i = 0; i < s.size(); ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        switch (c) {
        case '"':
            out += "\\\"";
            continue;
        case '\\':
            out += "\\\\";
            continue;
        case '\n':
            out += "\\n";
            continue;
        case '\t':
            out += "\\t";
            continue;
        case '/':
            out += escape_all ? "\\/" : "/";
            continue;
        default:
            break;
        }
        if (c < 0x20) {
            append_hex4(out, c, false);
        } else if (c < 0x80 || !escape_all) {
            out += static_cast<char>(c);
        } else {
            // Decode one (valid, generated) UTF-8 sequence.
            const int length = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : 2;
            std::uint32_t cp = c & (0xFF >> (length + 1));
            for (int k = 1; k < length; ++k)
                cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
            i += static_cast<std::size_t>(length - 1);
            const bool upper = (cp & 1) != 0;
            if (cp >= 0x10000) {
                cp -= 0x10000;
                append_hex4(out, 0xD800 + (cp >> 10), upper);
                append_hex4(out, 0xDC00 + (cp & 0x3FF), upper);
            } else {
                append_hex4(out, cp, upper);
            }
        }
    }
    out += '"';
}

/// Shortest text that reads back to exactly d.
void append_number(std::string& out, double d) {
    char buffer[32];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, d).ptr;
    out.append(buffer, end);
}

void append_number(std::string& out, std::int64_t i) {
    out += std::to_string(i);
}

/// Writes the members of one object with Python's json.dumps separators.
class object_text {
public:
    explicit object_text(std::string& out) : out_(out) { out_ += '{'; }
    /// Starts a member; the caller appends its value.
    std::string& key(std::string_view name) {
        if (!first_) out_ += ", ";
        first_ = false;
        out_.append("\"").append(name).append("\": ");
        return out_;
    }
    void close() { out_ += '}'; }

private:
    std::string& out_;
    bool first_ = true;
};

enum class presence { present, null, absent };

presence pick_presence(random_source& rng, int present_percent, int null_percent) {
    const int roll = rng.between(0, 99);
    if (roll < present_percent) return presence::present;
    return roll < present_percent + null_percent ? presence::null : presence::absent;
}

/// Writes an optional member: its value when present, `null`, or nothing at all.
template <class T, class Write>
void optional_member(object_text& object, std::string_view name, presence how,
                     std::optional<T>& value, T present_value, Write write) {
    if (how == presence::absent) return;
    std::string& out = object.key(name);
    if (how == presence::null) {
        out += "null";
        return;
    }
    write(out, present_value);
    value = std::move(present_value);
}

std::string_view enum_name(availability a) {
    switch (a) {
    case availability::in_stock:
        return "in_stock";
    case availability::backorder:
        return "backorder";
    case availability::preorder:
        return "preorder";
    case availability::discontinued:
        return "discontinued";
    }
    return {};
}

review make_review(random_source& rng, std::string& out) {
    review r;
    r.author = rng.pick(authors);
    r.rating = rng.between(1, 5);
    r.title = sentence(rng, rng.between(2, 6));
    r.body = sentence(rng, rng.between(8, 40));
    r.helpful_votes = static_cast<std::uint32_t>(rng.between(0, 500));
    const bool escape_all = rng.chance(15);

    object_text o(out);
    append_string(o.key("author"), r.author, escape_all);
    append_number(o.key("rating"), std::int64_t{r.rating});
    append_string(o.key("title"), r.title, escape_all);
    append_string(o.key("body"), r.body, escape_all);
    const std::string date =
        "2023-" + std::to_string(rng.between(10, 12)) + "-" + std::to_string(rng.between(10, 28));
    optional_member(o, "verified_purchase_date", pick_presence(rng, 60, 20),
                    r.verified_purchase_date, date,
                    [](std::string& s, const std::string& v) { append_string(s, v); });
    append_number(o.key("helpful_votes"), std::int64_t{r.helpful_votes});
    o.close();
    return r;
}

product make_product(random_source& rng, std::int64_t id, std::string& out) {
    product p;
    p.id = id;
    p.sku = "SKU-" + std::to_string(id * 7919 % 1000003) + "/" + std::string(rng.pick(currencies));
    p.name = std::string(rng.pick(title_words)) + " " + std::string(rng.pick(title_words)) + " " +
             std::to_string(rng.between(1, 9000));
    if (rng.chance(10)) p.name += " – " + std::string(rng.pick(non_ascii_words));
    p.description = sentence(rng, rng.between(15, 60));
    p.category = rng.pick(categories);
    p.status = static_cast<availability>(rng.between(0, 3));
    p.price.amount = rng.between(199, 249999) / 100.0;
    p.price.currency = rng.pick(currencies);
    p.stock = static_cast<std::uint32_t>(rng.between(0, 5000));
    p.rating = rng.between(10, 50) / 10.0;
    p.featured = rng.chance(15);
    const bool escape_all = rng.chance(10);

    object_text o(out);
    append_number(o.key("id"), p.id);
    append_string(o.key("sku"), p.sku, escape_all);
    append_string(o.key("name"), p.name, escape_all);
    append_string(o.key("description"), p.description, escape_all);
    append_string(o.key("category"), p.category, escape_all);
    append_string(o.key("status"), enum_name(p.status));

    {
        object_text price(o.key("price"));
        append_number(price.key("amount"), p.price.amount);
        append_string(price.key("currency"), p.price.currency);
        if (rng.chance(30)) {
            p.price.discount_percent = rng.between(10, 80) / 2.0;
            append_number(price.key("discount_percent"), *p.price.discount_percent);
        }
        price.close();
    }

    dimensions d{rng.between(5, 1500) / 10.0, rng.between(5, 1500) / 10.0,
                 rng.between(5, 1500) / 10.0, rng.between(10, 40000) / 1000.0};
    optional_member(o, "size", pick_presence(rng, 70, 15), p.size, d,
                    [](std::string& s, const dimensions& v) {
                        object_text size(s);
                        append_number(size.key("width_cm"), v.width_cm);
                        append_number(size.key("height_cm"), v.height_cm);
                        append_number(size.key("depth_cm"), v.depth_cm);
                        append_number(size.key("weight_kg"), v.weight_kg);
                        size.close();
                    });

    std::string& tags = o.key("tags");
    tags += '[';
    for (int i = 0, n = rng.between(0, 6); i < n; ++i) {
        if (i > 0) tags += ", ";
        p.tags.emplace_back(rng.pick(tag_words));
        append_string(tags, p.tags.back(), escape_all);
    }
    tags += ']';

    std::string& reviews = o.key("reviews");
    reviews += '[';
    for (int i = 0, n = rng.between(0, 4); i < n; ++i) {
        if (i > 0) reviews += ", ";
        p.reviews.push_back(make_review(rng, reviews));
    }
    reviews += ']';

    optional_member(o, "manufacturer", pick_presence(rng, 60, 20), p.manufacturer,
                    std::string(rng.pick(manufacturers)),
                    [&](std::string& s, const std::string& v) { append_string(s, v, escape_all); });
    optional_member(o, "warranty_months", pick_presence(rng, 50, 25), p.warranty_months,
                    12 * rng.between(1, 5),
                    [](std::string& s, int v) { append_number(s, std::int64_t{v}); });
    append_number(o.key("stock"), std::int64_t{p.stock});
    append_number(o.key("rating"), p.rating);
    o.key("featured") += p.featured ? "true" : "false";
    o.close();
    return p;
}

void keep_padding(std::string& json) {
    // reserve() may only grow: copy into a string sized for the padding from the start.
    std::string padded;
    padded.reserve(json.size() + input_padding);
    padded = json;
    json.swap(padded);
}

} // namespace

payload<person> make_person_payload() {
    payload<person> out;
    out.value = {.name = "Zoë Łukasiewicz",
                 .age = 35,
                 .occupation = "software engineer",
                 .email = "zoe.lukasiewicz@example.com",
                 .verified = true,
                 .languages = {"pl", "en", "fr"}};
    out.json =
        R"({"name": "Zo\u00eb \u0141ukasiewicz", "age": 35, "occupation": "software engineer", )"
        R"("email": "zoe.lukasiewicz@example.com", "verified": true, "languages": ["pl", "en", "fr"]})";
    keep_padding(out.json);
    return out;
}

payload<catalog> make_catalog_payload(std::size_t min_bytes) {
    random_source rng(20240601);
    payload<catalog> out;
    out.json.reserve(min_bytes + 4096);
    out.json += '[';
    for (std::int64_t id = 100000; out.json.size() < min_bytes; ++id) {
        if (id > 100000) out.json += ",\n";
        out.value.push_back(make_product(rng, id, out.json));
    }
    out.json += "]\n";
    keep_padding(out.json);
    return out;
}

} // namespace forma_bench
