/* Reads a temperature in Celsius from standard input and prints it in
   Fahrenheit; rejects values below absolute zero. */
#include <assert.h>
#include <stdio.h>

int main(void) {
    double c;
    if (scanf("%lf", &c) != 1)
        return 1;
    if (c < -273.15)
        return 2;
    double f = c * 9.0 / 5.0 + 32.0;
    assert(f >= -459.67); /* absolute zero in Fahrenheit */
    printf("%f\n", f);
    return 0;
}
