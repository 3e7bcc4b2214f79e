"""The Matrix gateway: matrix-nio sync loop (inbound) and `MatrixAdapter` (outbound). See README.md here."""
