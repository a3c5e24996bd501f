#include <forma/forma.hpp>

#include <boost/describe.hpp>

#include <iostream>

struct point {
    int x = 0;
    int y = 0;
};
BOOST_DESCRIBE_STRUCT(point, (), (x, y))

int main() {
    const auto p = forma::from_json<point>(R"({"x":1,"y":2})");
    std::cout << forma::to_json(p) << '\n';
    return p.x == 1 && p.y == 2 ? 0 : 1;
}
