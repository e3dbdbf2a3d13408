/* Seeded search's fixture: a chain of branches on one input. A seed that
   follows the chain answers each branch side it takes without the solver,
   so the seeded run asks fewer queries for the same paths. */
int chain(double x) {
  int n = 0;
  if (x > 1.0) n++;
  if (x > 2.0) n++;
  if (x > 4.0) n++;
  if (x > 8.0) n++;
  if (x > 16.0) n++;
  if (x > 32.0) n++;
  return n;
}
