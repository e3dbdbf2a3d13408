/* scanf("%s") into a 4-byte buffer: with --sym-stdin 4, four characters
 * without a space overflow it (the terminating NUL). The finding is at the
 * call (the overflow happens inside the C runtime's scanf), where
 * AddressSanitizer reports it natively. */
#include <stdio.h>

int main(void) {
  char word[4];
  if (scanf("%s", word) != 1)
    return 1;
  return word[0] == 'q';
}
