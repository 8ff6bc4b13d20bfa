"""Clubs (docs/clubs.md): a club's life from creation to its creator's deletion, its
limits and refusals in the reader's language, a moderator's hiding of its name, and
its board: the site's ranks filtered to the members, with the per-deal game points
sealed from a member who has not finished the day."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi import FastAPI

from server.helpers import TestClient, identify, make_client
from sheepshead import daily_game as daily
from sheepshead.cli import main
from sheepshead.server import Settings, create_app
from sheepshead.store.clubs import ClubStore
from sheepshead.store.daily_store import DailyStore

Json = dict[str, Any]


@pytest.fixture
def app(settings: Settings) -> Any:
    # Small limits, so that a test reaches them with a few players.
    app = create_app(replace(settings, clubs_per_player=2, members_per_club=3))
    yield app
    app.state.engine.dispose()


def player(app: FastAPI, name: str | None) -> TestClient:
    client = make_client(app)
    identify(app, client)
    if name is not None:
        assert client.put("/api/v1/daily/me/name", json={"name": name}).status_code == 200
    return client


def create(client: TestClient, name: str) -> Json:
    response = client.post("/api/v1/clubs", json={"name": name})
    assert response.status_code == 201, response.text
    club: Json = response.json()
    return club


def token(club: Json) -> str:
    return str(club["invitation"]).rsplit("/", 1)[1]


def join(client: TestClient, club: Json) -> Json:
    response = client.post("/api/v1/clubs/join", json={"invitation": token(club)})
    assert response.status_code == 200, response.text
    joined: Json = response.json()
    return joined


def detail(client: TestClient, club: Json) -> Json:
    response = client.get(f"/api/v1/clubs/{club['id']}")
    assert response.status_code == 200, response.text
    found: Json = response.json()
    return found


def names(client: TestClient, club: Json) -> list[str]:
    return [m["name"] for m in detail(client, club)["members"]]


def member_id(client: TestClient, club: Json, name: str) -> str:
    found: str = next(m["member"] for m in detail(client, club)["members"] if m["name"] == name)
    return found


def test_a_club_from_its_creation_to_its_creators_leaving(app: FastAPI) -> None:
    ann, bea, cy, dan = (player(app, n) for n in ("Annie", "Beata", "Cyrus", "Danny"))
    # A name is needed to create one, and the club's name is checked as display names are.
    nameless = player(app, None)
    refused = nameless.post("/api/v1/clubs", json={"name": "Nameless"}).json()
    assert refused["code"] == "club-needs-name"
    assert ann.post("/api/v1/clubs", json={"name": "Admin Club"}).json()["code"] == "name-refused"
    club = create(ann, "Kegel Club")
    assert club["owner"]
    assert len(token(club)) >= 22
    taken = bea.post("/api/v1/clubs", json={"name": "KEGEL  club"})
    assert (taken.status_code, taken.json()["code"]) == (409, "club-name-taken")
    # An invitation lets anyone in, once; a club holds members_per_club (3) at most.
    join(bea, club)
    join(bea, club)
    join(cy, club)
    full = dan.post("/api/v1/clubs/join", json={"invitation": token(club)})
    assert (full.status_code, full.json()["code"], full.json()["params"]) == (
        409,
        "club-full",
        {"limit": 3},
    )
    assert names(bea, club) == ["Annie", "Beata", "Cyrus"]
    # Only members see it; only the creator removes, hands on, renews the link.
    assert dan.get(f"/api/v1/clubs/{club['id']}").json()["code"] == "no-such-club"
    cy_id = member_id(ann, club, "Cyrus")
    no = bea.delete(f"/api/v1/clubs/{club['id']}/members/{cy_id}")
    assert (no.status_code, no.json()["code"]) == (403, "club-owner-only")
    assert ann.delete(f"/api/v1/clubs/{club['id']}/members/{cy_id}").status_code == 204
    assert cy.get(f"/api/v1/clubs/{club['id']}").status_code == 404
    # A new link makes the old one stale.
    renewed = ann.post(f"/api/v1/clubs/{club['id']}/invitation").json()["invitation"]
    stale = dan.post("/api/v1/clubs/join", json={"invitation": token(club)})
    assert (stale.status_code, stale.json()["code"]) == (404, "club-invitation-stale")
    join(dan, {"invitation": renewed})
    # A member leaves; the creator hands the club on and is then a plain member.
    assert dan.post(f"/api/v1/clubs/{club['id']}/leave").status_code == 204
    assert names(ann, club) == ["Annie", "Beata"]
    bea_id = member_id(ann, club, "Beata")
    assert ann.post(f"/api/v1/clubs/{club['id']}/owner", json={"member": bea_id}).status_code == 200
    assert not detail(ann, club)["owner"]
    assert detail(bea, club)["owner"]
    # Clubs per player (2): a third is refused.
    create(bea, "Second Club")
    limit = bea.post("/api/v1/clubs", json={"name": "Third Club"}).json()
    assert (limit["code"], limit["params"]) == ("club-limit", {"limit": 2})
    # The owner leaving passes the club to the longest-standing member left.
    assert bea.post(f"/api/v1/clubs/{club['id']}/leave").status_code == 204
    assert detail(ann, club)["owner"]
    assert [c["name"] for c in bea.get("/api/v1/clubs").json()["clubs"]] == ["Second Club"]


def test_deleting_the_creator_passes_the_club_on_or_deletes_it(app: FastAPI) -> None:
    ann, bea, cy = (player(app, n) for n in ("Annie", "Beata", "Cyrus"))
    shared = create(ann, "Kegel Club")
    alone = create(ann, "Lonely Club")
    join(cy, shared)  # Cyrus before Beata: the longest-standing member after Annie
    join(bea, shared)
    assert ann.delete("/api/v1/daily/me").status_code == 204
    store = ClubStore(app.state.engine)
    assert store.club(alone["id"]) is None
    assert names(bea, shared) == ["Cyrus", "Beata"]
    assert detail(cy, shared)["owner"]
    assert not detail(bea, shared)["owner"]
    # The deletion also takes the member's memberships with it.
    assert cy.delete("/api/v1/daily/me").status_code == 204
    assert names(bea, shared) == ["Beata"]
    assert detail(bea, shared)["owner"]


def test_a_moderator_hides_a_club_name_and_it_stays_taken(app: FastAPI, settings: Settings) -> None:
    ann = player(app, "Annie")
    club = create(ann, "Kegel Club")
    assert main(["admin", "hide-club", "KEGEL CLUB", "--database", settings.database]) == 0
    shown = detail(ann, club)
    assert shown["name"] is None
    assert shown["hidden"]
    assert "Kegel" not in ann.get(f"/clubs/{club['id']}").text
    again = player(app, "Beata").post("/api/v1/clubs", json={"name": "Kegel Club"})
    assert again.json()["code"] == "club-name-taken"
    assert main(["admin", "hide-club", "No Such Club", "--database", settings.database]) == 1


def test_the_pages_refuse_in_the_readers_language(app: FastAPI) -> None:
    ann = player(app, "Annie")
    page = ann.post("/clubs?lang=de", data={"name": "Ab"})
    assert page.status_code == 422
    assert "Ein Name braucht mindestens 3 Zeichen." in page.text
    club = create(ann, "Kegel Club")
    ann.post(f"/api/v1/clubs/{club['id']}/invitation")
    stale = make_client(app).get(f"{club['invitation']}?lang=bn")
    assert stale.status_code == 404
    assert 'role="alert"' in stale.text
    assert "invitation" not in stale.text.split("role=")[1][:200]
    # A form on another site cannot make a player create, join or leave a club.
    forged = ann.post(f"/clubs/{club['id']}/leave", headers={"sec-fetch-site": "cross-site"})
    assert forged.status_code == 403
    assert detail(ann, club)["owner"]
    # Creating from the page: a redirect to the new club's board.
    made = ann.post("/clubs", data={"name": "Skat Club"}, follow_redirects=False)
    assert made.status_code == 303
    assert made.headers["location"].startswith("/clubs/")


def finish(app: FastAPI, client: TestClient, points: list[int]) -> None:
    """Store a finished ranked attempt of today with these game points, as the daily
    game's own save does at the fifth deal's end."""
    store = DailyStore(app.state.engine)
    day = daily.day_of(datetime.now(UTC))
    store.ensure_day(day, "0" * 64, "expert/1")
    me = client.get("/api/v1/daily/me")  # the cookie's player
    assert me.status_code == 200
    player_id = client.cookies["sheepshead_player"]
    attempt = store.create_attempt(player_id, day, 1, [], 0, None)
    assert attempt is not None
    assert store.save_attempt(attempt, [[]] * 5, 1, True, points)
    store.refresh_board(day)


def test_the_club_board_ranks_members_and_seals_deals_until_the_day_is_finished(
    app: FastAPI,
) -> None:
    ann, bea, cy, out = (player(app, n) for n in ("Anita", "Bruno", "Cyril", "Outsider"))
    club = create(ann, "Skat Night")
    join(bea, club)
    join(cy, club)
    finish(app, ann, [10, 10, 10, 10, 10])
    finish(app, out, [5, 5, 5, 5, 5])  # not a member: on the site's board between them
    finish(app, bea, [0, 0, 0, 0, 0])
    # Cyrus has not finished the day: ranks and scores, but no one's deals.
    board = cy.get(f"/api/v1/clubs/{club['id']}/board").json()
    assert board["field"] == 3
    assert not board["deals_shown"]
    lines = [(t["club_rank"], t["rank"], t["name"], t["points"]) for t in board["top"]]
    assert lines == [(1, 1, "Anita", None), (2, 3, "Bruno", None)]
    page = cy.get(f"/clubs/{club['id']}").text
    assert "Outsider" not in page
    assert "+10" not in page
    assert 'id="club-sealed"' in page
    # Once he has finished, every member's deals are his to see.
    finish(app, cy, [0, 0, 0, 0, 0])
    board = cy.get(f"/api/v1/clubs/{club['id']}/board").json()
    # Level players share a rank, listed in an order that means nothing.
    lines = sorted((t["club_rank"], t["rank"], t["name"], t["points"]) for t in board["top"])
    assert lines == [
        (1, 1, "Anita", [10] * 5),
        (2, 3, "Bruno", [0] * 5),
        (2, 3, "Cyril", [0] * 5),
    ]
    assert "+10 · +10" in cy.get(f"/clubs/{club['id']}").text
    week = cy.get(f"/api/v1/clubs/{club['id']}/week").json()
    assert sorted((t["club_rank"], t["name"]) for t in week["top"]) == [
        (1, "Anita"),
        (2, "Bruno"),
        (2, "Cyril"),
    ]
    # No one outside the club sees its board.
    assert out.get(f"/api/v1/clubs/{club['id']}/board").status_code == 404


@pytest.mark.parametrize("lang", ["de", "bn"])
def test_the_club_pages_leave_no_english(app: FastAPI, lang: str) -> None:
    from server.test_i18n import SAME_IN, english_msgids, visible

    english = english_msgids() - {" ".join(s.split()) for s in SAME_IN.get(lang, set())}
    ann, bea = player(app, "Annie"), player(app, "Beata")
    club = create(ann, "Kegel Club")
    join(bea, club)
    finish(app, ann, [3, 0, 0, 0, 0])
    pages = ["/clubs", f"/clubs/{club['id']}", f"/clubs/{club['id']}?week=1", club["invitation"]]
    pages += ["/offline/" + lang]
    for url in pages:
        page = ann.get(url, headers={"accept-language": lang})
        assert page.status_code == 200, url
        left = [t for t in visible(page.text) if t in english and t != "Sheepshead"]
        assert left == [], f"{url}: English left: {left}"
