// Only forma::json: a described type read, written and given a schema.
#include <forma/json.hpp>

#include <boost/describe.hpp>

#include <iostream>

struct point {
    int x = 0;
    int y = 0;
};
BOOST_DESCRIBE_STRUCT(point, (), (x, y))

int main() {
    const auto p = forma::from_json<point>(R"({"x":1,"y":2})");
    std::cout << forma::to_json(p) << ' ' << forma::json_schema<point>().size() << '\n';
    return p.x == 1 && p.y == 2 ? 0 : 1;
}
