"""Challenges (community/challenges.py): made, answered, cancelled, expired, kept as JSON."""

from __future__ import annotations

import json

import pytest

from c4tui.community.challenges import (
    CORRESPONDENCE_DAYS,
    LIVE_SECONDS,
    MAX_OPEN,
    Challenge,
    ChallengeBook,
    ChallengeRefused,
)

ANN, BOB, CY = ("k-ann", "Ann"), ("k-bob", "Bob"), ("k-cy", "Cy")


class Clock:
    now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def live(book: ChallengeBook, a=ANN, b=BOB, **more) -> Challenge:
    args = {"rated": True, "correspondence": False, "opponent_online": True} | more
    return book.make(a, b, "3+2", **args)


def test_a_challenge_is_accepted_once_by_the_one_challenged() -> None:
    book = ChallengeBook(Clock())
    challenge = live(book)
    assert book.made_to("k-bob") == [challenge] and book.made_by("k-ann") == [challenge]
    assert challenge.terms() == "3+2, rated"
    with pytest.raises(ChallengeRefused, match="not yours"):
        book.accept(challenge.id, "k-ann")
    assert book.accept(challenge.id, "k-bob") == challenge
    with pytest.raises(ChallengeRefused, match="no longer open"):
        book.accept(challenge.id, "k-bob")


def test_declined_and_cancelled_challenges_go() -> None:
    book = ChallengeBook(Clock())
    first = live(book)
    with pytest.raises(ChallengeRefused, match="not yours"):
        book.cancel(first.id, "k-bob")
    book.decline(first.id, "k-bob")
    second = live(book)
    book.cancel(second.id, "k-ann")
    assert book.open == {}


def test_refusals_say_why() -> None:
    book = ChallengeBook(Clock(), blocked=lambda a, b: (a, b) == ("k-cy", "k-ann"))
    with pytest.raises(ChallengeRefused, match="yourself"):
        live(book, ANN, ANN)
    with pytest.raises(ChallengeRefused, match="cannot challenge Cy"):
        live(book, ANN, CY)  # Cy blocks Ann: asked both ways round
    with pytest.raises(ChallengeRefused, match=r"not online: .*correspondence"):
        live(book, opponent_online=False)
    live(book)
    with pytest.raises(ChallengeRefused, match="open already"):
        live(book, BOB, ANN)


def test_one_player_has_at_most_a_few_open() -> None:
    book = ChallengeBook(Clock())
    for n in range(MAX_OPEN):
        live(book, ANN, (f"k-{n}", f"P{n}"))
    with pytest.raises(ChallengeRefused, match="cancel one first"):
        live(book, ANN, BOB)


def test_a_correspondence_challenge_waits_for_a_player_away_and_outlives_their_leaving() -> None:
    clock = Clock()
    book = ChallengeBook(clock)
    waiting = book.make(ANN, BOB, "1d", rated=True, correspondence=True, opponent_online=False)
    now = live(book, ANN, CY)
    assert book.left("k-ann") == [now]  # a game now needs both here
    clock.now += LIVE_SECONDS + (CORRESPONDENCE_DAYS - 1) * 86400
    assert book.expire() == []
    clock.now += 86400
    assert book.expire() == [waiting]
    assert book.open == {}


def test_a_live_challenge_expires_unanswered() -> None:
    clock = Clock()
    book = ChallengeBook(clock)
    challenge = live(book)
    clock.now += LIVE_SECONDS
    with pytest.raises(ChallengeRefused, match="no longer open"):
        book.accept(challenge.id, "k-bob")
    assert book.expire() == [challenge]


def test_a_challenge_goes_to_json_and_back() -> None:
    book = ChallengeBook(Clock())
    challenge = live(book, rated=False)
    again = Challenge.from_json(json.loads(json.dumps(challenge.as_json())))
    assert again == challenge
    other = ChallengeBook(Clock())
    other.restore(again)
    assert live(other, ANN, CY).id == challenge.id + 1


def test_an_answered_challenges_number_is_not_given_again() -> None:
    # A late answer to a challenge that is gone must not answer a newer one.
    book = ChallengeBook(Clock())
    first = live(book)
    book.decline(first.id, "k-bob")
    again = live(book)
    assert again.id != first.id
    with pytest.raises(ChallengeRefused, match="no longer open"):
        book.accept(first.id, "k-bob")


def test_a_book_may_give_live_challenges_less_time() -> None:
    clock = Clock()
    book = ChallengeBook(clock, live_seconds=60.0)
    challenge = live(book)
    assert challenge.expires == clock.now + 60.0 < clock.now + LIVE_SECONDS
