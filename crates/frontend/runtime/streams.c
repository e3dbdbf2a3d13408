/* fpsym C runtime: what a program asks of its streams and locale
 * (fileno, isatty, fstat, stat, nl_langinfo, localeconv), as a test runs natively: standard
 * streams redirected (no terminal), the C locale. Compiled to bitcode and linked
 * with the program; every function is weak. (Apart from stdio.c, which
 * tests also build natively beside glibc.) */
#define WEAK __attribute__((weak))

typedef struct _IO_FILE FILE;
extern FILE *stdin;
int *__errno_location(void);
void fpsym_unsupported_stream(FILE *stream);

/* Stand-ins for the output streams (the printf models do not look at
 * their stream; fileno does); stdin is stdio.c's. */
static char fpsym_stdout_file, fpsym_stderr_file;
WEAK FILE *stdout = (FILE *)&fpsym_stdout_file;
WEAK FILE *stderr = (FILE *)&fpsym_stderr_file;

/* fileno of another stream ends the path (not modelled). */
WEAK int fileno(FILE *stream) {
  if (stream == stdin) return 0;
  if (stream == stdout) return 1;
  if (stream == stderr) return 2;
  fpsym_unsupported_stream(stream);
  return -1;
}
WEAK int isatty(int fd) {
  (void)fd;
  *__errno_location() = 25; /* ENOTTY (EBADF for a closed fd is not modelled) */
  return 0;
}
/* nl_langinfo in the C locale: CODESET, RADIXCHAR and THOUSEP (glibc's item
 * numbers); another item ends the path. */
void fpsym_unsupported_langinfo(int item);
WEAK char *nl_langinfo(int item) {
  switch (item) {
  case 14: return (char *)"ANSI_X3.4-1968";
  case 0x10000: return (char *)".";
  case 0x10001: return (char *)"";
  }
  fpsym_unsupported_langinfo(item);
  return (char *)"";
}

/* localeconv in the C locale (glibc's struct lconv, field for field: the
 * decimal point ".", every other string empty, every char CHAR_MAX). */
struct lconv {
  char *decimal_point, *thousands_sep, *grouping, *int_curr_symbol, *currency_symbol, *mon_decimal_point,
      *mon_thousands_sep, *mon_grouping, *positive_sign, *negative_sign;
  char int_frac_digits, frac_digits, p_cs_precedes, p_sep_by_space, n_cs_precedes, n_sep_by_space, p_sign_posn,
      n_sign_posn, int_p_cs_precedes, int_p_sep_by_space, int_n_cs_precedes, int_n_sep_by_space, int_p_sign_posn,
      int_n_sign_posn;
};
WEAK struct lconv *localeconv(void) {
  static struct lconv c = {".", "", "", "", "", "", "", "", "", "",
                           127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127, 127};
  return &c;
}

/* fstat of the standard streams, as replay runs a test natively: standard
 * input is /dev/null (a character device) without --sym-stdin and a pipe
 * with it, standard output /dev/null, standard error a pipe. What those
 * give is fixed (the kind and permissions, size 0, one link, 4096-byte
 * blocks, /dev/null's device number 1:3); what varies from machine to
 * machine (the device and inode, the owner, the three times) is an input
 * of the run, "fstat", which replay's fstat writes over the machine's:
 * one per file (standard input and output are the same /dev/null without
 * --sym-stdin), made at its first fstat and kept, its nanoseconds below
 * 10^9, its device and inode another file's pair. Another descriptor ends
 * the path (not modelled). x86-64's struct stat; on other targets fstat
 * is not modelled. */
#if defined(__x86_64__)
struct fpsym_stat {
  unsigned long st_dev, st_ino, st_nlink;
  unsigned int st_mode, st_uid, st_gid;
  int pad0;
  unsigned long st_rdev;
  long st_size, st_blksize, st_blocks;
  long st_times[6]; /* atime, mtime, ctime: seconds and nanoseconds */
  long reserved[3];
};
/* The inputs, in this order (replay's fstat reads the same struct, and
 * keeps one per file the same way). */
struct fpsym_stat_inputs {
  unsigned long dev, ino;
  unsigned int uid, gid;
  long times[6];
};
extern unsigned long fpsym_stdin_size;
void klee_make_symbolic(void *p, unsigned long n, const char *name);
void klee_assume(unsigned long c);
void fpsym_unsupported_fstat_descriptor(int fd);
void fpsym_unsupported_stat_path(const char *path);
static struct fpsym_stat_inputs fpsym_stat_files[3];
static int fpsym_stat_made[3];
WEAK int fstat(int fd, struct fpsym_stat *s) {
  if (fd < 0 || fd > 2) {
    fpsym_unsupported_fstat_descriptor(fd);
    return -1;
  }
  int stdin_pipe = fpsym_stdin_size > 0;
  int pipe = fd == 2 || (fd == 0 && stdin_pipe);
  int file = fd == 0 && !stdin_pipe ? 1 : fd; /* stdin is stdout's /dev/null */
  struct fpsym_stat_inputs *in = &fpsym_stat_files[file];
  if (!fpsym_stat_made[file]) {
    klee_make_symbolic(in, sizeof *in, "fstat");
    for (int i = 1; i < 6; i += 2)
      klee_assume((in->times[i] >= 0) & (in->times[i] <= 999999999)); /* no branch: one path */
    for (int f = 0; f < 3; f++)
      if (fpsym_stat_made[f])
        klee_assume((fpsym_stat_files[f].dev != in->dev) | (fpsym_stat_files[f].ino != in->ino));
    fpsym_stat_made[file] = 1;
  }
  *s = (struct fpsym_stat){0};
  s->st_dev = in->dev;
  s->st_ino = in->ino;
  s->st_uid = in->uid;
  s->st_gid = in->gid;
  for (int i = 0; i < 6; i++)
    s->st_times[i] = in->times[i];
  s->st_nlink = 1;
  s->st_mode = pipe ? 0010600 : 0020666; /* S_IFIFO | rw-------, S_IFCHR | rw-rw-rw- */
  s->st_rdev = pipe ? 0 : 0x103;
  s->st_blksize = 4096;
  return 0;
}
WEAK int fstat64(int fd, struct fpsym_stat *s) { return fstat(fd, s); }
/* stat of a standard stream's name is its fstat; another path ends the
 * path (not modelled). */
static int fpsym_stream_path(const char *p) {
  static const char *const names[][3] = {{"/dev/stdin", "/dev/stdout", "/dev/stderr"},
                                         {"/dev/fd/0", "/dev/fd/1", "/dev/fd/2"},
                                         {"/proc/self/fd/0", "/proc/self/fd/1", "/proc/self/fd/2"}};
  for (int i = 0; i < 3; i++)
    for (int fd = 0; fd < 3; fd++) {
      const char *a = names[i][fd], *b = p;
      while (*a && *a == *b)
        a++, b++;
      if (!*a && !*b)
        return fd;
    }
  return -1;
}
WEAK int stat(const char *path, struct fpsym_stat *s) {
  int fd = fpsym_stream_path(path);
  if (fd < 0) {
    fpsym_unsupported_stat_path(path);
    return -1;
  }
  return fstat(fd, s);
}
WEAK int stat64(const char *path, struct fpsym_stat *s) { return stat(path, s); }
#endif

/* makedev, major and minor (glibc's functions behind the macros). */
WEAK unsigned long long gnu_dev_makedev(unsigned int major, unsigned int minor) {
  return (minor & 0xffu) | ((unsigned long long)(major & 0xfffu) << 8) |
         ((unsigned long long)(minor & ~0xffu) << 12) | ((unsigned long long)(major & ~0xfffu) << 32);
}
WEAK unsigned int gnu_dev_major(unsigned long long dev) {
  return ((dev >> 8) & 0xfffu) | ((unsigned int)(dev >> 32) & ~0xfffu);
}
WEAK unsigned int gnu_dev_minor(unsigned long long dev) {
  return (dev & 0xffu) | ((unsigned int)(dev >> 12) & ~0xffu);
}
