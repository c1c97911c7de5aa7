"""Rules documentation generated from spec/ and conformance/: pages, terminal text, case stories."""
