"""Players: sessions of one identity are one player; a name is one identity's."""

import hashlib
import re

import pytest
from aiohttp.test_utils import make_mocked_request

from c4tui.community.passwords import hashed
from c4tui.server.fronts.client_process import ClientCommand
from c4tui.server.fronts.players import NameBook, NameTaken, Player, Players
from c4tui.server.fronts.session_limits import Gate, ServeLimits
from c4tui.server.fronts.web import COOKIE, WebFront, names_secret
from c4tui.server.store.chosen_names import ChosenNames
from c4tui.server.store.opening import open_store
from c4tui.server.store.people_records import PeopleRecords
from c4tui.server.store.player_records import PlayerRecords


@pytest.fixture
def records(tmp_path):
    with open_store(tmp_path) as store:
        yield PlayerRecords(store)


def test_two_live_sessions_of_one_identity_are_one_player():
    players = Players()
    ann = Player("ssh-name:ann", "ann", "10.0.0.1")
    assert players.enter(ann) == ann
    assert players.enter(ann) == ann  # another terminal: the same player, the same seat
    players.leave(ann)
    assert list(players.sessions) == [ann]  # still online through the other session
    players.leave(ann)
    assert not players.sessions


def test_a_key_cannot_claim_a_name_a_keyless_session_is_using(records):
    # Issue 30 item 13: a keyless "bob" online when a key first claimed "bob" looked the
    # same as the key holder until that session ended.
    players = Players(NameBook(records))
    keyless = players.enter(Player("ssh-name:bob", "bob", "10.0.0.1"))
    with pytest.raises(NameTaken, match="in use right now by a player without a key"):
        players.enter(Player("ssh-key:SHA256:bob", "Bob", "10.0.0.2"))
    assert players.names.owner("bob") is None  # and it claimed nothing
    players.leave(keyless)
    players.enter(Player("ssh-key:SHA256:bob", "Bob", "10.0.0.2"))
    assert players.names.owner("bob") == records.player_of("ssh-key:SHA256:bob") is not None


def test_a_keys_name_is_its_own_and_kept(tmp_path):
    with open_store(tmp_path) as store:
        book = NameBook(PlayerRecords(store))
        bob = Player("ssh-key:SHA256:bob", "bob", "10.0.0.1")
        assert book.refusal(bob) is None  # the first use claims it
    with open_store(tmp_path) as store:  # after a restart
        again = NameBook(PlayerRecords(store))
        assert again.refusal(bob) is None
        assert "belongs to a player with an ssh key" in again.refusal(
            Player("ssh-name:Bob", "Bob", "10.0.0.2")
        )
        assert "another ssh key" in again.refusal(Player("ssh-key:SHA256:eve", "bob", "10.0.0.3"))
        assert again.refusal(Player("ssh-name:ann", "ann", "10.0.0.2")) is None
        assert "browsers'" in again.refusal(Player("ssh-name:web-1a2b", "web-1a2b", "10.0.0.2"))


def test_a_key_plays_under_the_name_it_claimed_first(records):
    # Before, a key that logged in under a second name claimed it too, and its player
    # was shown by the latest login name in everyone's lists (issue 45, item 17).
    players = Players(NameBook(records))
    first = players.enter(Player("ssh-key:SHA256:ann", "ann", "10.0.0.1"))
    again = players.enter(Player("ssh-key:SHA256:ann", "root", "10.0.0.1"))
    assert first.name == again.name == "ann"
    assert records.holder_of("root") is None  # not claimed either: still anyone's


def test_players_refuse_a_name_that_is_another_identitys(records):
    players = Players(NameBook(records))
    players.enter(Player("ssh-key:SHA256:bob", "bob", "10.0.0.1"))
    with pytest.raises(NameTaken):
        players.enter(Player("ssh-name:bob", "bob", "10.0.0.2"))
    assert [p.key for p in players.sessions] == ["ssh-key:SHA256:bob"]


def test_names_that_cannot_be_checked_are_not_given_away(records):
    book = NameBook(records)
    records.store.close()  # as when the server is stopping, or the database fails
    refusal = book.refusal(Player("ssh-key:SHA256:bob", "bob", "10.0.0.1"))
    assert "cannot check names" in refusal


def test_a_name_a_password_holds_lets_in_its_own_keyless_player_alone(records):
    PeopleRecords(records.store).set_password("ssh-name:cy", "cy", hashed("cys secret"))
    book = NameBook(records)
    assert book.refusal(Player("ssh-name:cy", "cy", "10.0.0.1")) is None  # ssh asked it
    for other in ("ssh-name:CY", "ssh-key:SHA256:cy"):
        refusal = book.refusal(Player(other, "CY", "10.0.0.2"))
        assert refusal == "the name CY is another player's: choose another name."


def test_a_keyless_name_in_any_case_is_one_player(records):
    # Before, "BOB" and "bob" without a key were two players, and a keyless name's
    # password, asked of "CY" as of "cy", let "CY" in only to refuse the name.
    players = Players(NameBook(records))
    bob = players.enter(Player("ssh-name:bob", "bob", "10.0.0.1"))
    assert players.enter(Player("ssh-name:BOB", "BOB", "10.0.0.2")).key == bob.key
    assert len({p.key for p in players.sessions}) == 1
    PeopleRecords(records.store).set_password("ssh-name:cy", "cy", hashed("cys secret"))
    assert players.enter(Player("ssh-name:CY", "CY", "10.0.0.3")).key == "ssh-name:cy"


def test_a_keyless_identity_kept_in_another_case_is_still_found(records):
    # One made before names were folded keeps its ratings and games.
    records.player("ssh-name:Dee", "Dee")
    records.player("ssh-name:DEE", "DEE")  # the second of that name, left alone
    players = Players(NameBook(records))
    assert players.enter(Player("ssh-name:dee", "dee", "10.0.0.1")).key == "ssh-name:Dee"
    assert players.enter(Player("ssh-name:Éva", "Éva", "10.0.0.1")).key == "ssh-name:éva"


def test_a_key_cannot_claim_a_name_a_keyless_player_uses_on_another_server(records):
    online_there = {"ssh-name:bob": "bob"}  # who is online on the other servers
    players = Players(NameBook(records), lambda: online_there)
    with pytest.raises(NameTaken, match="in use right now by a player without a key"):
        players.enter(Player("ssh-key:SHA256:bob", "Bob", "10.0.0.2"))
    online_there.clear()  # bob has left that server
    players.enter(Player("ssh-key:SHA256:bob", "Bob", "10.0.0.2"))


def test_a_returning_browser_is_the_name_it_chose(records, tmp_path):
    # A browser's name was always a new web-1a2b: it could choose none, nor keep one.
    front = WebFront(
        host="127.0.0.1",
        port=0,
        state_dir=tmp_path,
        gate=Gate(ServeLimits()),
        command=ClientCommand(),
        credentials=dict,
    )
    front.store = records.store

    def visitor(cookie: str) -> Player:
        request = make_mocked_request("GET", "/ws", headers={"Cookie": f"{COOKIE}={cookie}"})
        return front.player(request, "10.0.0.1")

    first = visitor("1" * 32)
    assert first.key.startswith("web:") and first.name.startswith("web-")
    assert ChosenNames(records.store).choose(first.key, "Ann")
    assert visitor("1" * 32) == Player(first.key, "Ann", "10.0.0.1")  # back, as Ann
    other = visitor("2" * 32)
    assert other.name.startswith("web-")  # another browser: its own name
    assert not ChosenNames(records.store).choose(other.key, "ANN")  # Ann's, in any case
    assert visitor("2" * 32).name == other.name


def test_a_name_that_looks_like_a_held_one_is_the_holders(records):
    book = NameBook(records)
    assert book.refusal(Player("ssh-key:SHA256:ann", "ann", "10.0.0.1")) is None  # claimed
    cyrillic = "\u0430nn"  # "аnn": its first letter Cyrillic
    for other in ("ssh-name:" + cyrillic, "ssh-key:SHA256:mallory"):
        refusal = book.refusal(Player(other, cyrillic, "10.0.0.2"))
        assert refusal is not None and "choose another name" in refusal
    assert not ChosenNames(records.store).choose("web:mallory", "\uff41NN")  # fullwidth "ａ"
    assert records.claim("ANN", "ssh-key:SHA256:ann")  # the holder's, in any look
    assert records.claim("b0b", "ssh-key:SHA256:bob") and records.claim("bob", "ssh-key:x")


def test_names_held_before_skeletons_were_kept_are_guarded_too(records):
    records.claim("ann", "ssh-key:SHA256:ann")
    records.store.execute("UPDATE names SET skeleton = NULL")  # as 016 leaves them
    later = PlayerRecords(records.store)
    assert later.holder_of("\u0430nn") == later.player_of("ssh-key:SHA256:ann")
    assert records.store.value("SELECT skeleton FROM names") == "ann"


def test_a_browsers_name_cannot_be_searched_for_and_a_made_up_cookie_is_not_taken(tmp_path):
    def front(state) -> WebFront:
        made = WebFront(
            host="127.0.0.1",
            port=0,
            state_dir=state,
            gate=Gate(ServeLimits()),
            command=ClientCommand(),
            credentials=dict,
        )
        made.name_secret = names_secret(state)
        return made

    def visitor(at: WebFront, cookie: str) -> Player:
        request = make_mocked_request("GET", "/ws", headers={"Cookie": f"{COOKIE}={cookie}"})
        return at.player(request, "10.0.0.1")

    here, again, elsewhere = front(tmp_path / "a"), front(tmp_path / "a"), front(tmp_path / "b")
    cookie = "3" * 32
    ann = visitor(here, cookie)
    plain = hashlib.sha256(cookie.encode()).hexdigest()
    assert ann.name != f"web-{plain[:4]}" and re.fullmatch(r"web-[0-9a-f]{8}", ann.name)
    assert visitor(again, cookie) == ann  # the same server after a restart: the same name
    assert visitor(elsewhere, cookie).name != ann.name  # another server's secret
    # A cookie the server never gave is not taken as an identity: a new visitor each time.
    made_up = {visitor(here, "mallory").key for _ in range(3)}
    assert len(made_up) == 3 and ann.key not in made_up


def test_a_keyless_name_that_looks_like_one_online_waits_until_they_have_left():
    players = Players()
    ann = players.enter(Player("ssh-name:ann", "ann", "10.0.0.1"))
    cyrillic = "\u0430nn"
    with pytest.raises(NameTaken, match="looks like"):
        players.enter(Player("ssh-name:" + cyrillic, cyrillic, "10.0.0.2"))
    again = players.enter(Player("ssh-name:ann", "ANN", "10.0.0.3"))  # ann, in any case
    players.leave(ann)
    players.leave(again)
    players.enter(Player("ssh-name:" + cyrillic, cyrillic, "10.0.0.2"))  # ann has left
