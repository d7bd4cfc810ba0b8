"""What a room's history holds and costs, as `stats` and `GET /rooms` say it: `historyBytes`
grows with the room's changes, `historyMs` with the time its stepping thread spends writing
it; neither is there when the server keeps no history."""
from client import Client, run
from room_tools import add
from server import RunningServer, wait_until


def entry(server, name):
    return next((room for room in server.rooms() if room["name"] == name), None)


def test_stats_and_the_listing_say_what_a_rooms_history_holds():
    with RunningServer() as server:
        async def scenario():
            async with Client(server.room("kept")) as client:
                before = await client.next("stats")
                assert before["historyBytes"] > 0 and before["historyMs"] >= 0, before
                await add(client, 50)
                await client.send({"type": "params", "charge": 40})
                await client.event("params", by=client.id)
                assert await wait_until_async(client, lambda stats: stats["historyBytes"] > before["historyBytes"]
                                              and stats["historyMs"] > before["historyMs"])
                assert wait_until(lambda: (entry(server, "kept") or {}).get("historyBytes", 0) > before["historyBytes"],
                                  timeout=5), server.rooms()
        run(scenario())


def test_a_server_that_keeps_no_history_says_nothing_of_it():
    with RunningServer("--history-bytes", "0") as server:
        async def scenario():
            async with Client(server.room("forgetful")) as client:
                stats = await client.next("stats")
                assert "historyBytes" not in stats and "historyMs" not in stats, stats
                assert "historyBytes" not in entry(server, "forgetful"), server.rooms()
        run(scenario())


async def wait_until_async(client, condition, stats_messages=10):
    """Whether one of the next few `stats` (one a second) meets `condition`."""
    for _ in range(stats_messages):
        if condition(await client.next("stats")):
            return True
    return False
