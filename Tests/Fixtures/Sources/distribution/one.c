#include "shared.h"

/* `one` crashes in the library (an argument), `one x y` in itself: both through the inline functions. */
int main(int argc, char **argv) {
    struct reading readings[3] = {{1, 2.0, "a"}, {2, argc > 1 ? -1.0 : 3.0, "b"}, {3, 4.0, "c"}};
    if (argc == 2)
        return (int)library_total(readings, 3) & 1;
    printf("%f\n", average(readings, 3));
    return (int)library_total(readings, 3) & 1;
}
