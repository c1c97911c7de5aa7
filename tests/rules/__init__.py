"""Rules tests: one or more tests per spec rule ID and per numbered ruling."""
