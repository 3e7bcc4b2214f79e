"""The application: what happens when someone plays, whatever the chat platform and whoever runs the jobs.

A person's move, a bot's move and what the move hands on after it commits; lobbies and their commands; the front door
gateways call (`dispatch`); publishing a move as outbox rows; deadlines and the beat's scans; rating finished games;
and the queue interface through which all of it hands work on (`queue`). docs/architecture.md has the map.
"""
