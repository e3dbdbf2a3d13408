/* Every path raises invalid at line 8 before x * 1e300 overflows at line
 * 9: the replay table's row of the overflow's test shows the overflow
 * (the event that confirms it), not the first exception raised. */
double zero = 0.0;

double order(double x)
{
    double nan = zero / zero;
    double big = x * 1e300;
    return big + (nan != nan);
}
