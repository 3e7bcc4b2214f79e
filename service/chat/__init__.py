"""Chat platforms behind one small interface (`base.ChatAdapter`); gateways only translate."""
