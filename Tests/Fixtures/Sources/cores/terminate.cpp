// An exception no one catches: std::terminate, abort, raise, then SIGABRT, from a recursive member function.
#include <stdexcept>

struct Parser {
    int depth = 0;
    __attribute__((noinline)) void parse(int remaining) {
        if (remaining == 0) throw std::runtime_error("unexpected end of input");
        depth++;
        parse(remaining - 1);
    }
};

int main() {
    Parser parser;
    parser.parse(3);
}
