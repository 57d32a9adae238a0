"""A server renews its leases when they are due, not only at its once-a-TICK look: a
lease shorter than three TICKs (`--lease-seconds 1` is allowed) would otherwise run out
between two renewals of a live server, and another server could take its rooms."""

from __future__ import annotations

import asyncio

from tests.rooms.support import running


async def test_leases_are_renewed_as_often_as_they_are_due(tmp_path):
    async with running(tmp_path / "state", lease_seconds=0.3) as service:
        host = service.host
        seen: list[str] = []
        two_looks = asyncio.Event()
        renew, look = host.leasing.see_to, host.look

        async def renewing() -> None:
            seen.append("renew")
            await renew()

        def looking() -> None:
            seen.append("look")
            if seen.count("look") == 2:
                two_looks.set()
            look()

        host.leasing.see_to, host.look = renewing, looking
        await asyncio.wait_for(two_looks.wait(), 60)
        first = seen.index("look")
        between = seen[first + 1 : seen.index("look", first + 1)]  # one TICK's worth
        # Due every 0.1 s of the TICK's 1 s: several, not one with each look.
        assert between.count("renew") >= 3, seen
