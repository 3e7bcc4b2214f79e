"""Mentions: the player's name becomes a pill in `formatted_body`, the rest is escaped, `m.mentions` lists them."""

from __future__ import annotations

from service.matrix.mentions import HTML, mention_content


def test_the_name_becomes_a_pill_and_everything_else_is_escaped():
    content = mention_content("<Ann & co>, it's your turn <b>now</b>", {"@ann:x.org": "<Ann & co>"})
    assert content == {
        "format": HTML,
        "formatted_body": '<a href="https://matrix.to/#/@ann:x.org">&lt;Ann &amp; co&gt;</a>, '
                          "it&#x27;s your turn &lt;b&gt;now&lt;/b&gt;",
        "m.mentions": {"user_ids": ["@ann:x.org"]},
    }


def test_two_players_named_alike_get_a_pill_each_and_lines_stay_lines():
    content = mention_content("Al, Al: wake up\nplease", {"@a1:x": "Al", "@a2:x": "Al"})
    assert content["formatted_body"] == (
        '<a href="https://matrix.to/#/@a1:x">Al</a>, <a href="https://matrix.to/#/@a2:x">Al</a>: wake up<br>please'
    )
    assert content["m.mentions"] == {"user_ids": ["@a1:x", "@a2:x"]}


def test_a_name_not_in_the_text_gets_no_pill_but_is_still_mentioned():
    content = mention_content("Someone is late", {"@bob:x": "Bob"})
    assert content["formatted_body"] == "Someone is late"
    assert content["m.mentions"] == {"user_ids": ["@bob:x"]}
