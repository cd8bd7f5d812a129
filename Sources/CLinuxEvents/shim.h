/* Linux's event and signal descriptors, which Glibc's Swift module leaves out: an eventfd ends waits from another
   thread, a signalfd turns SIGTERM and SIGINT into a descriptor a server's accept loop polls. */
#include <sys/eventfd.h>
#include <sys/signalfd.h>
