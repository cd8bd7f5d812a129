// Runs a program with every signal unblocked and at its default action. A test runner's threads block signals, and
// a child inherits the mask across exec: gdb would wait forever for its inferior's SIGCHLD, and a program's own
// raise() would never arrive.
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: with-default-signals PROGRAM [ARGUMENT...]\n");
        return 64;
    }
    for (int number = 1; number < NSIG; number++) {
        if (number != SIGKILL && number != SIGSTOP) signal(number, SIG_DFL);
    }
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, 0);
    execvp(argv[1], argv + 1);
    perror(argv[1]);
    return 127;
}
