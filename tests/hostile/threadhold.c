/* A bot whose deleted file is held by a thread with a descriptor table of
 * its own (cloned without CLONE_FILES): the process's /proc/PID/fd (its
 * leader's table) does not show it, only /proc/PID/task/TID/fd does.
 * Outside review, round five (b03): 200 MiB held under a 20 MiB
 * write-size, both games played to the end.
 *
 * usage: threadhold TESTBOT FOLDER
 * A child process makes the thread, which writes 21 MiB to a file in
 * FOLDER, deletes it and holds it open; the bot then plays honest moves.
 * Built by the test that uses it (cc -O2), beside hiddenfill.sh. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *folder;
static char block[1 << 20];

static int hold(void *unused) {
    (void)unused;
    char path[4096];
    snprintf(path, sizeof path, "%s/thread-held-%d", folder, getpid());
    int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0600);
    if (fd < 0) {
        perror("threadhold: open");
        for (;;) pause();
    }
    unlink(path);
    memset(block, 'x', sizeof block);
    long held = 0;
    for (int i = 0; i < 21; i++)
        if (write(fd, block, sizeof block) == (ssize_t)sizeof block) held++;
    fsync(fd);
    fprintf(stderr, "threadhold: a thread with its own table holds %ld MiB deleted\n", held);
    for (;;) pause();
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    folder = argv[2];
    if (fork() == 0) {
        size_t size = 1 << 20;
        char *stack = malloc(size);
        int flags = CLONE_VM | CLONE_FS | CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM;
        if (clone(hold, stack + size, flags, NULL) < 0) perror("threadhold: clone");
        for (;;) pause();
    }
    sleep(1);
    execl(argv[1], argv[1], "random", "--seed", "29", (char *)NULL);
    return 1;
}
