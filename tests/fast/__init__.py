"""The compiled simulator (loveletter.fast): its differential against the
reference engine, its action table and its batch interface."""
