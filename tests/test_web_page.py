"""The web table's page on the web port: "/" and the built files' names, over real HTTP.

A ``WebApp`` with an API of no methods and a ``Page`` over a folder of the test's own is
served by uvicorn on a free port, so that what is tested is what a browser gets: the
content types, the caching headers, a 304 for a page it holds, nothing outside the folder
(whatever the path says, raw on the socket), and "not built yet" where nothing was built.
The referee's own web port serves the page ``make page`` built into the package.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
from server_helpers import run_async
from test_web_api import web_referee

from referee.server import web

INDEX = b"<!doctype html><title>t</title><script type=module src=app.js></script>"


def built(folder: Path) -> Path:
    folder.mkdir()
    (folder / "index.html").write_bytes(INDEX)
    (folder / "app.js").write_bytes(b"console.log(1)")
    (folder / "app.css").write_bytes(b"body{}")
    (folder / ".hidden.js").write_bytes(b"hidden")
    (folder / "notes.txt").write_bytes(b"no such type")
    (folder / "sub").mkdir()
    (folder / "sub" / "x.js").write_bytes(b"nested")
    return folder


@contextlib.asynccontextmanager
async def serving(folder: Path) -> AsyncIterator[int]:
    app = web.WebApp(web.ConnectApp({}, 1 << 20), web.Page(folder))
    endpoint = await web.WebEndpoint.start(app, web.listen("127.0.0.1", 0))
    try:
        yield endpoint.port
    finally:
        await endpoint.stop(0)


async def raw(port: int, request: bytes) -> tuple[int, bytes]:
    """One request written byte for byte (no client normalises its path): the status, the
    body."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    answer = await reader.read()
    writer.close()
    head, _, body = answer.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


@run_async
async def test_the_page_is_served_with_its_types_and_caching(tmp_path: Path) -> None:
    folder = built(tmp_path / "page")
    async with (
        serving(folder) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        index = await http.get("/")
        assert index.status_code == 200 and index.content == INDEX
        assert index.headers["content-type"] == "text/html; charset=utf-8"
        assert index.headers["cache-control"] == "no-cache"
        assert index.headers["x-content-type-options"] == "nosniff"
        assert index.headers["content-security-policy"] == web.PAGE_POLICY.decode()
        assert (await http.get("/index.html")).content == INDEX
        script = await http.get("/app.js")
        assert script.headers["content-type"] == "text/javascript; charset=utf-8"
        assert script.content == b"console.log(1)"
        style = await http.get("/app.css")
        assert style.headers["content-type"] == "text/css; charset=utf-8"
        # The same build again: 304, no body; a new build: the new file.
        again = await http.get("/app.js", headers={"if-none-match": script.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
        (folder / "app.js").write_bytes(b"console.log(2)")
        rebuilt = await http.get("/app.js", headers={"if-none-match": script.headers["etag"]})
        assert rebuilt.status_code == 200 and rebuilt.content == b"console.log(2)"
        head = await http.head("/")
        assert head.status_code == 200 and head.content == b""
        assert head.headers["content-length"] == str(len(INDEX))


@run_async
async def test_nothing_outside_the_page_is_served(tmp_path: Path) -> None:
    """Hidden files, other suffixes, folders, symbolic links, and any path that climbs out
    (written raw, percent-encoded, or with backslashes) are a 404, never the file."""
    folder = built(tmp_path / "page")
    (tmp_path / "secret.js").write_bytes(b"SECRET")
    os.symlink(tmp_path / "secret.js", folder / "link.js")
    async with (
        serving(folder) as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        for path in ("/.hidden.js", "/notes.txt", "/sub", "/sub/x.js", "/link.js", "/nothing.js"):
            missing = await http.get(path)
            assert missing.status_code == 404, path
        for target in (
            b"/../secret.js",
            b"/%2e%2e/secret.js",
            b"/%2e%2e%2fsecret.js",
            b"/..%2fsecret.js",
            b"/..",
            b"/..\\secret.js",
            b"/%2E%2E%5Csecret.js",
            b"//secret.js",
            b"/page/../secret.js",
        ):
            status, body = await raw(
                port, b"GET " + target + b" HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
            )
            assert status in (400, 404) and b"SECRET" not in body, target


@run_async
async def test_not_built_yet(tmp_path: Path) -> None:
    """Without a built page "/" says so; the API's paths are still the API's."""
    async with (
        serving(tmp_path / "none") as port,
        httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as http,
    ):
        for path in ("/", "/app.js"):
            page = await http.get(path)
            assert page.status_code == 404 and page.content == web.NOT_BUILT
        # A POST to "/" is never the page: it goes to the API, which has no such method.
        posted = await http.post("/", content=b"", headers={"content-type": "application/proto"})
        assert posted.status_code == 404 and posted.content != web.NOT_BUILT


@run_async
async def test_the_referee_serves_the_built_page_beside_the_api() -> None:
    """``bhabhi serve --web-port`` serves the page in the package (``make page``) at "/",
    and the API on the same port."""
    async with web_referee() as (_, connect):
        page = await connect.http.get("/")
        if not (web.PAGE_DIRECTORY / "index.html").is_file():
            assert page.status_code == 404 and page.content == web.NOT_BUILT
            return
        assert page.status_code == 200 and b'src="app.js"' in page.content
        script = await connect.http.get("/app.js")
        assert script.status_code == 200
        assert script.headers["content-type"] == "text/javascript; charset=utf-8"
        # The bundle holds the Connect runtime and the client generated from the proto (its
        # file descriptor, base64, starts with the proto's name).
        assert b"connect-web" in script.content
        proto_name = b"\n\x1fbhabhi/referee/v1/referee.proto"
        assert base64.b64encode(proto_name)[:40] in script.content
