"""Structured logs: the JSON and text formats, which loggers reach the handler at which
level, refusals logged at DEBUG (and nothing per move at INFO), and ``bhabhi serve`` with
``--log-format json`` and ``--metrics-port`` as a process."""

from __future__ import annotations

import asyncio
import datetime
import io
import json
import logging
import os
import socket
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bhabhi.referee.v1 import referee_pb2 as pb
from server_helpers import (
    BHABHO_DEAL,
    Referee,
    bhabhi_command,
    play,
    referee,
    refusal_of,
    run_async,
    seat_table,
)

from referee.ops.drill import LISTENING, free_port
from referee.server.observe import LOGGERS, JsonFormatter, TextFormatter, configure_logging


@pytest.fixture
def restore_logging() -> Iterator[None]:
    """``configure_logging`` changes the process's logging: put it back afterwards."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    levels = {name: logging.getLogger(name).level for name in LOGGERS}
    yield
    root.handlers[:] = handlers
    root.setLevel(level)
    for name, old in levels.items():
        logging.getLogger(name).setLevel(old)
    logging.captureWarnings(False)


def records(stream: io.StringIO) -> list[dict[str, Any]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


def utc(stamp: str) -> datetime.datetime:
    assert stamp.endswith("Z"), stamp
    moment = datetime.datetime.fromisoformat(stamp)
    assert moment.utcoffset() == datetime.timedelta(0)
    return moment


def test_json_lines_have_the_fields_and_what_extra_gave(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("json", "DEBUG", stream=stream)
    logging.getLogger("bhabhi.referee").info(
        "seat %d joined", 2, extra={"table_id": "t1", "seat": 2, "path": Path("/x")}
    )
    logging.getLogger("referee.server.store.postgres").debug("listening again")
    try:
        raise ValueError("broken\nacross lines")
    except ValueError:
        logging.getLogger("bhabhi.server").exception("it failed")
    lines = stream.getvalue().splitlines()
    assert len(lines) == 3  # the traceback stays inside its record
    joined, store, failed = records(stream)
    utc(joined.pop("ts"))
    assert joined == {
        "level": "INFO",
        "logger": "bhabhi.referee",
        "message": "seat 2 joined",
        "table_id": "t1",
        "seat": 2,
        "path": "/x",  # what JSON cannot hold, as text
    }
    assert (store["level"], store["logger"]) == ("DEBUG", "referee.server.store.postgres")
    assert failed["level"] == "ERROR" and "ValueError: broken\nacross lines" in failed["exc"]


def test_other_libraries_log_from_warning_up(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("json", "debug", stream=stream)
    logging.getLogger("asyncio").info("the event loop's chatter")
    logging.getLogger("grpc._cython.cygrpc").warning("worth seeing")
    assert [(r["logger"], r["message"]) for r in records(stream)] == [
        ("grpc._cython.cygrpc", "worth seeing")
    ]


def test_the_level_holds_back_what_is_below_it(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("json", "WARNING", stream=stream)
    logging.getLogger("bhabhi.referee").info("not shown")
    logging.getLogger("bhabhi.referee").warning("shown")
    assert [r["message"] for r in records(stream)] == ["shown"]


def test_configuring_again_replaces_the_handler(restore_logging: None) -> None:
    first, second = io.StringIO(), io.StringIO()
    configure_logging("json", "INFO", stream=first)
    configure_logging("text", "INFO", stream=second)
    logging.getLogger("bhabhi.server").info("once")
    assert first.getvalue() == ""
    assert second.getvalue().count("once") == 1


def test_text_lines_carry_the_same_fields() -> None:
    record = logging.makeLogRecord(
        {
            "name": "bhabhi.server",
            "levelno": logging.INFO,
            "levelname": "INFO",
            "msg": "referee started",
            "created": 0.0,
            "address": "127.0.0.1:50051",
            "store": "var/my db.sqlite3",
            "test_mode": False,
        }
    )
    assert TextFormatter().format(record) == (
        "1970-01-01T00:00:00.000Z INFO bhabhi.server: referee started "
        'address=127.0.0.1:50051 store="var/my db.sqlite3" test_mode=False'
    )
    assert json.loads(JsonFormatter().format(record))["ts"] == "1970-01-01T00:00:00.000Z"


def test_an_unknown_format_or_level_is_refused(restore_logging: None) -> None:
    with pytest.raises(ValueError, match="log format"):
        configure_logging("xml", "INFO")
    with pytest.raises(ValueError, match="log level"):
        configure_logging("json", "LOUD")


@run_async
async def test_refusals_are_logged_at_debug_and_moves_not_at_info(restore_logging: None) -> None:
    stream = io.StringIO()
    configure_logging("json", "INFO", stream=stream)
    async with referee(test_mode=True) as ref:
        seated = await seat_table(ref, "bhabho", 4, deal=BHABHO_DEAL)
        p0 = seated.players[0]
        await p0.submit(play("AS"), (await p0.view()).seq)
        missing = pb.GetTableRequest(table_id="no-such-table")
        assert (await refusal_of(ref.tables.GetTable(missing))).reason == "table_not_found"
        assert stream.getvalue() == ""  # a move, a join, a refusal: nothing at INFO

        configure_logging("json", "DEBUG", stream=stream)
        assert (await refusal_of(ref.tables.GetTable(missing))).reason == "table_not_found"
        refused = await refusal_of(p0.submit(play("2H"), (await p0.view()).seq))
        assert refused.reason == "not_your_turn"
    logged = [r for r in records(stream) if r["message"].startswith("refused")]
    assert [(r["level"], r["method"], r["reason"], r["table_id"]) for r in logged] == [
        ("DEBUG", "GetTable", "table_not_found", "no-such-table"),
        ("DEBUG", "SubmitAction", "not_your_turn", seated.table_id),
    ]


# --- bhabhi serve as a process -----------------------------------------------------------------


def _scrape(url: str) -> str:
    with urllib.request.urlopen(url, timeout=10) as answer:
        text: str = answer.read().decode()
        return text


@run_async
async def test_serve_logs_json_lines_and_serves_metrics(tmp_path: Path) -> None:
    metrics_port = free_port()
    process = await asyncio.create_subprocess_exec(
        *bhabhi_command(),
        "serve",
        "--port",
        "0",
        "--db",
        str(tmp_path / "referee.sqlite3"),
        "--metrics-port",
        str(metrics_port),
        "--log-format",
        "json",
        "--log-level",
        "debug",
        cwd=tmp_path,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        first = (await asyncio.wait_for(process.stdout.readline(), 20)).decode()
        found = LISTENING.search(first)  # stdout is unchanged: tools read the port there
        assert found, first
        ref = Referee(int(found.group(1)))
        missing = pb.GetTableRequest(table_id="no-such-table")
        assert (await refusal_of(ref.tables.GetTable(missing))).reason == "table_not_found"
        text = await asyncio.to_thread(_scrape, f"http://127.0.0.1:{metrics_port}/metrics")
        assert 'bhabhi_refusals_total{method="GetTable",reason="table_not_found"} 1.0' in text
        await ref.close()
        process.terminate()
        out, err = await asyncio.wait_for(process.communicate(), 20)
        assert process.returncode == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    assert "draining" in out.decode()
    lines = err.decode().splitlines()
    assert lines, "nothing logged"
    entries = []
    for line in lines:
        entry = json.loads(line)  # every line on stderr is one JSON object
        assert {"ts", "level", "logger", "message"} <= entry.keys(), entry
        utc(entry["ts"])
        entries.append(entry)
    started = next(e for e in entries if e["message"] == "referee started")
    assert started["level"] == "INFO" and started["logger"] == "bhabhi.server"
    assert started["address"] == f"127.0.0.1:{found.group(1)}"
    assert started["store"] == str(tmp_path / "referee.sqlite3")
    assert started["test_mode"] is False
    assert started["metrics"] == f"http://127.0.0.1:{metrics_port}/metrics"
    refused = [e for e in entries if e.get("reason") == "table_not_found"]
    assert [(e["level"], e["method"], e["table_id"]) for e in refused] == [
        ("DEBUG", "GetTable", "no-such-table")
    ]
    messages = [e["message"] for e in entries]
    assert messages.index("referee started") < messages.index("draining")
    assert messages[-1] == "stopped"


def test_serve_with_its_metrics_port_taken_says_so_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        busy = taken.getsockname()[1]
        result = subprocess.run(
            [
                *bhabhi_command(),
                "serve",
                "--port",
                "0",
                "--db",
                str(tmp_path / "referee.sqlite3"),
                "--metrics-port",
                str(busy),
            ],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert result.returncode == 1
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"bhabhi serve: error: cannot serve metrics on 127.0.0.1:{busy}: the port is in use"
    ]
    assert not (tmp_path / "referee.sqlite3").exists()  # said before the store was opened
