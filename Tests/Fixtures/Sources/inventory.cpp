// C++ fixture: -O2 -g with templates, namespaces, lambdas and inlining.
#include <algorithm>
#include <cstdio>
#include <map>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace warehouse {
namespace detail {

template <typename T>
inline T checked_add(T a, T b) {
    if (b > 0 && a > static_cast<T>(1000000) - b) throw std::overflow_error("overflow");
    return a + b;
}

}  // namespace detail

template <typename Item>
class Shelf {
public:
    void put(const Item &item, int count) { counts_[item] = detail::checked_add(counts_[item], count); }

    int total() const {
        return std::accumulate(counts_.begin(), counts_.end(), 0,
                               [](int sum, const auto &entry) { return detail::checked_add(sum, entry.second); });
    }

    template <typename Predicate>
    std::vector<Item> select(Predicate keep) const {
        std::vector<Item> out;
        for (const auto &entry : counts_)
            if (keep(entry.first, entry.second)) out.push_back(entry.first);
        return out;
    }

private:
    std::map<Item, int> counts_;
};

struct Report {
    static std::string describe(const Shelf<std::string> &shelf, int threshold) {
        auto low = shelf.select([threshold](const std::string &, int count) { return count < threshold; });
        std::sort(low.begin(), low.end(), [](const std::string &a, const std::string &b) { return a.size() < b.size(); });
        std::string text = "low:";
        for (const auto &name : low) text += " " + name;
        return text;
    }
};

}  // namespace warehouse

int main(int argc, char **argv) {
    warehouse::Shelf<std::string> shelf;
    warehouse::Shelf<int> bins;
    for (int i = 1; i < argc; i++) {
        shelf.put(argv[i], i);
        bins.put(i % 4, i * 3);
    }
    std::printf("%d %d %s\n", shelf.total(), bins.total(), warehouse::Report::describe(shelf, 2).c_str());
    return 0;
}
