/* Recursive summation (FPGen, seed 002, Figure 1a): the elements added one
 * by one from the last to the first; the result is a[0]. */
#define N 8

double sum(const double *x)
{
    double a[N];
    int i;
    for (i = 0; i < N; i++)
        a[i] = x[i];
    for (i = N - 1; i > 0; i--)
        a[i - 1] = a[i - 1] + a[i];
    return a[0];
}

/* The same in float. */
float sumf(const float *x)
{
    float a[N];
    int i;
    for (i = 0; i < N; i++)
        a[i] = x[i];
    for (i = N - 1; i > 0; i--)
        a[i - 1] = a[i - 1] + a[i];
    return a[0];
}
