"""Sending the outbox through the chat adapters, in order per chat and within each platform's rates.

Run by the `deliver` job: in-process, in a Celery worker, or in a gateway's own consumer of its platform's deliveries.
"""
