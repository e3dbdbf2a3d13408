#include <stdio.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <klee/klee.h>
extern void reach_error(void);

/* fstat and stat of the standard streams, as tests run natively: standard
   input and output /dev/null (one file), standard error a pipe. The device,
   inode, owner and times vary from machine to machine: they are inputs,
   one per file. */
int main(void) {
  double x;
  klee_make_symbolic(&x, sizeof x, "x");
  struct stat in, out, err, named, again;
  if (fstat(0, &in) != 0 || fstat(1, &out) != 0 || fstat(2, &err) != 0 || stat("/dev/stdout", &named) != 0 ||
      fstat(1, &again) != 0)
    reach_error();
  if (!S_ISCHR(in.st_mode) || !S_ISCHR(out.st_mode) || !S_ISFIFO(err.st_mode) || !S_ISCHR(named.st_mode))
    reach_error();
  if ((in.st_mode & 0777) != 0666 || (err.st_mode & 0777) != 0600 || in.st_rdev != makedev(1, 3) || err.st_rdev)
    reach_error();
  if (in.st_size || err.st_size || out.st_blksize != 4096 || err.st_nlink != 1 || named.st_blocks ||
      major(out.st_rdev) != 1 || minor(out.st_rdev) != 3)
    reach_error();
  /* One file, one answer; two files, two (device, inode) pairs. */
  if (again.st_ino != out.st_ino || again.st_mtim.tv_sec != out.st_mtim.tv_sec || in.st_ino != out.st_ino ||
      in.st_dev != out.st_dev || named.st_ino != out.st_ino)
    reach_error();
  if (out.st_dev == err.st_dev && out.st_ino == err.st_ino)
    reach_error();
  if (out.st_atim.tv_nsec < 0 || out.st_atim.tv_nsec > 999999999 || err.st_ctim.tv_nsec < 0)
    reach_error();
  if (out.st_ino == 12345 && x > 2.0)
    reach_error();
  if (x > 1.0 && x < 1.5)
    reach_error();
  return 0;
}
// expect-finding: reach-error 34
// expect-finding: reach-error 36
