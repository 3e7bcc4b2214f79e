"""Benchmarks, apart from the product packages: `camelot bench engine|pipeline|moves` (see `service.cli`)."""
