"""The deployment files (deploy/) and their documentation (docs/deployment.md) stay true.

Everything here reads files: no Docker, no Kubernetes, no Envoy. The Kubernetes manifests
must name only flags that ``bhabhi serve`` accepts, keep the database URL out of the command
line, and probe the referee's health service; the Envoy configuration must health-check that
service and retry only the calls that are safe to repeat. The image and the manifests serve
Prometheus metrics on the same port (where the pod annotations and the Service say they
are) and log JSON, and every ``BHABHI_*`` variable they (or the deployment guide) name is one
the referee reads: parsed with ``bhabhi serve``'s own parser, in that environment.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shlex
from collections.abc import Mapping
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
import yaml
from bhabhi.referee.v1 import referee_pb2 as pb

from referee.server import commands as serve_commands

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
KUBERNETES = DEPLOY / "kubernetes"
ENVOY = DEPLOY / "envoy" / "envoy.yaml"
DOCKERFILE = DEPLOY / "Dockerfile"
DEPLOYMENT_GUIDE = ROOT / "docs" / "deployment.md"
SERVE_SOURCES = (
    ROOT / "referee" / "server" / "commands.py",
    ROOT / "referee" / "server" / "app.py",
)
"""Where ``bhabhi serve`` reads its environment: the flags' defaults, and the drain time."""

SERVICES = ("RulesetService", "TableService", "PlayService")
HEALTH_NAMES = {"", *(pb.DESCRIPTOR.services_by_name[s].full_name for s in SERVICES)}
"""What the referee's grpc.health.v1 service answers for (app.py sets each SERVING)."""

IDEMPOTENT = {
    "ListRulesets",
    "GetRuleset",
    "GetRulebook",
    "AnalyzeRuleset",
    "ValidateRuleset",
    "GetTable",
    "ListTables",
    "GetView",
    "WatchTable",
    "ExportHand",
    "SubmitAction",  # a retry with the same request_id returns the first answer
    "HandSeat",  # the same seat handed again sends the waiting bot nothing new
}
NOT_IDEMPOTENT = {
    "RegisterRuleset",
    "CreateTable",
    "JoinTable",
    "LeaveTable",
    "StartTable",
    "ReplayTestActions",  # a retry is refused with stale_seq, having applied nothing
    "AwaitSeats",  # a bot's wait: the bot opens it again itself
}


def _yaml_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.suffix in (".yaml", ".yml"))


@functools.cache
def _load(path: Path) -> tuple[Any, ...]:
    return tuple(doc for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc)


def _kubernetes_objects() -> dict[str, dict[str, Any]]:
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(KUBERNETES.glob("*.yaml")):
        for doc in _load(path):
            assert doc["kind"] not in found, f"two {doc['kind']} objects"
            found[doc["kind"]] = doc
    return found


def _container() -> dict[str, Any]:
    deployment = _kubernetes_objects()["Deployment"]
    containers = deployment["spec"]["template"]["spec"]["containers"]
    assert len(containers) == 1
    container: dict[str, Any] = containers[0]
    return container


def _serve_accepts(args: list[str], env: Mapping[str, str] | None = None) -> argparse.Namespace:
    """Fail unless ``bhabhi <args>`` parses as a ``serve`` command line, with the parser
    that ``referee/server/commands.py`` registers for ``bhabhi serve``; return what it read.

    With ``env``, the parser is built in exactly those ``BHABHI_*`` variables (the flags'
    defaults come from the environment when the parser is registered), none of the test
    run's own. argparse converts a default it takes from there but does not check it
    against the flag's choices, so that is checked here."""
    assert args[:1] == ["serve"], args
    with mock.patch.dict(os.environ):
        if env is not None:
            for name in [n for n in os.environ if n.startswith("BHABHI_")]:
                del os.environ[name]
            os.environ.update(env)
        parser = argparse.ArgumentParser(prog="bhabhi")
        subparsers = parser.add_subparsers(dest="command", required=True)
        try:
            serve_commands.register(subparsers)
            parsed = parser.parse_args(args)
        except (SystemExit, ValueError):  # argparse has printed why, or int() refused
            pytest.fail(f"bhabhi serve does not accept {args} with {env}")
    assert parsed.command == "serve"
    for action in subparsers.choices["serve"]._actions:  # argparse lists them nowhere public
        if action.choices is not None:
            value = getattr(parsed, action.dest)
            assert value in action.choices, f"{action.option_strings}: {value!r} (env {env})"
    return parsed


def _dockerfile_json(instruction: str) -> list[str]:
    match = re.search(rf"^{instruction}\s+(\[.*\])\s*$", DOCKERFILE.read_text(), re.MULTILINE)
    assert match, f"no exec-form {instruction} in {DOCKERFILE}"
    words: list[str] = json.loads(match.group(1))
    return words


def _final_stage() -> list[str]:
    """The instructions of the Dockerfile's last stage (the image), one line each: comments
    dropped, continued lines joined."""
    lines = [ln for ln in DOCKERFILE.read_text().splitlines() if not ln.lstrip().startswith("#")]
    joined = re.sub(r"\\\n", " ", "\n".join(lines))
    instructions = [ln.strip() for ln in joined.splitlines() if ln.strip()]
    starts = [i for i, ln in enumerate(instructions) if re.match(r"FROM\s", ln, re.IGNORECASE)]
    assert starts, f"no FROM in {DOCKERFILE}"
    return instructions[starts[-1] :]


def _dockerfile_env() -> dict[str, str]:
    """The image's environment (its last stage's ENV instructions)."""
    env: dict[str, str] = {}
    for line in _final_stage():
        keyword, _, rest = line.partition(" ")
        if keyword.upper() != "ENV":
            continue
        words = shlex.split(rest)
        if "=" not in words[0]:  # the old form: ENV NAME value with spaces
            env[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            name, equals, value = word.partition("=")
            assert equals, f"ENV {rest}: mixes its two forms"
            env[name] = value
    return env


def _dockerfile_exposed() -> set[int]:
    ports: set[int] = set()
    for line in _final_stage():
        keyword, _, rest = line.partition(" ")
        if keyword.upper() == "EXPOSE":
            ports |= {int(word.removesuffix("/tcp")) for word in rest.split()}
    return ports


def _container_env() -> dict[str, str]:
    """What the Kubernetes container runs with: the image's environment, then the
    manifest's (a value from a Secret stands in as a placeholder)."""
    env = dict(_dockerfile_env())
    for entry in _container()["env"]:
        env[entry["name"]] = str(entry["value"]) if "value" in entry else "<from a Secret>"
    return env


def _named_ports() -> dict[str, int]:
    ports = _container()["ports"]
    named = {p["name"]: p["containerPort"] for p in ports}
    assert len(named) == len(ports) == len({p["containerPort"] for p in ports})
    return named


# --- every YAML file --------------------------------------------------------------------


def test_deploy_has_the_expected_files() -> None:
    names = {str(p.relative_to(DEPLOY)) for p in _yaml_files()}
    assert {
        "envoy/envoy.yaml",
        "kubernetes/kustomization.yaml",
        "kubernetes/deployment.yaml",
        "kubernetes/service.yaml",
    } <= names
    assert DOCKERFILE.is_file()
    assert (DEPLOY / "README.md").is_file()


@pytest.mark.parametrize("path", _yaml_files(), ids=lambda p: str(p.relative_to(DEPLOY)))
def test_yaml_parses(path: Path) -> None:
    docs = _load(path)
    assert docs, f"{path} holds no document"
    assert all(isinstance(doc, dict) for doc in docs)


# --- Kubernetes -------------------------------------------------------------------------


def test_kubernetes_objects_and_kustomization() -> None:
    objects = _kubernetes_objects()
    assert set(objects) == {"Deployment", "Service", "PodDisruptionBudget", "Kustomization"}
    kustomization = objects.pop("Kustomization")
    listed = set(kustomization["resources"])
    assert listed == {p.name for p in KUBERNETES.glob("*.yaml")} - {"kustomization.yaml"}
    assert "namespace" not in kustomization, "the base stays namespace-agnostic"
    for kind, obj in objects.items():
        assert "namespace" not in obj["metadata"], f"{kind} names a namespace"
        assert obj["apiVersion"] in ("apps/v1", "v1", "policy/v1"), kind
    images = {image["name"] for image in kustomization.get("images", [])}
    assert _container()["image"].split(":")[0] in images


def test_deployment_runs_three_replicas_with_serve_flags_only() -> None:
    deployment = _kubernetes_objects()["Deployment"]
    assert deployment["spec"]["replicas"] == 3
    container = _container()
    args = [str(a) for a in container["args"]]
    _serve_accepts(args)
    assert "--db" not in args and not any("postgres" in a for a in args), (
        "the database URL (and its password) must not be on the command line"
    )
    env = {e["name"]: e for e in container["env"]}
    assert env["BHABHI_DB"]["valueFrom"]["secretKeyRef"]["key"]
    assert "value" not in env["BHABHI_DB"]


def test_deployment_probes_the_health_service_and_outlasts_the_drain() -> None:
    container = _container()
    (port,) = [p["containerPort"] for p in container["ports"] if p["name"] == "grpc"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        grpc_probe = container[probe]["grpc"]
        assert grpc_probe["port"] == port, probe
        assert grpc_probe.get("service", "") in HEALTH_NAMES, probe
    pod = _kubernetes_objects()["Deployment"]["spec"]["template"]["spec"]
    env = {e["name"]: e for e in container["env"]}
    drain = float(env["BHABHI_DRAIN_SECONDS"]["value"])
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    assert pod["terminationGracePeriodSeconds"] > float(command[1]) + drain


def test_service_and_budget_select_the_replicas() -> None:
    objects = _kubernetes_objects()
    labels = objects["Deployment"]["spec"]["template"]["metadata"]["labels"]
    service = objects["Service"]["spec"]
    assert service["clusterIP"] == "None", "headless, for client-side balancing"
    assert service["selector"].items() <= labels.items()
    assert {p["name"]: p["targetPort"] for p in service["ports"]} == {
        "grpc": "grpc",
        "metrics": "metrics",
        "web": "web",
    }, "each Service port goes to the container port of its name"
    ports = {p["name"]: p["port"] for p in service["ports"]}
    assert ports == _named_ports(), "the Service's ports are the container's"
    budget = objects["PodDisruptionBudget"]["spec"]["selector"]["matchLabels"]
    assert budget.items() <= labels.items()


def test_deployment_serves_metrics_where_prometheus_looks() -> None:
    named = _named_ports()
    metrics_port = named["metrics"]
    parsed = _serve_accepts([str(a) for a in _container()["args"]], _container_env())
    assert parsed.port == named["grpc"]
    assert parsed.metrics_port == metrics_port, "the referee serves the metrics on `metrics`"
    assert parsed.metrics_host == "0.0.0.0", "reachable from outside the pod"
    template = _kubernetes_objects()["Deployment"]["spec"]["template"]["metadata"]
    annotations = template["annotations"]
    assert all(isinstance(v, str) for v in annotations.values()), "annotations are strings"
    assert annotations["prometheus.io/scrape"] == "true"
    assert annotations["prometheus.io/port"] == str(metrics_port)
    assert annotations["prometheus.io/path"] == "/metrics"


def test_deployment_logs_json() -> None:
    env = {e["name"]: e for e in _container()["env"]}
    assert env["BHABHI_LOG_FORMAT"]["value"] == "json", "stated by the manifest itself"
    parsed = _serve_accepts([str(a) for a in _container()["args"]], _container_env())
    assert parsed.log_format == "json"


# --- Dockerfile -------------------------------------------------------------------------


def test_dockerfile_generates_the_grpc_code_and_serves() -> None:
    text = DOCKERFILE.read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.MULTILINE)
    assert "tools/gen_proto.py" in text
    assert _dockerfile_json("ENTRYPOINT") == ["bhabhi"]
    command = _dockerfile_json("CMD")
    _serve_accepts(command)
    assert command[command.index("--host") + 1] == "0.0.0.0"


def test_dockerfile_serves_metrics_and_logs_json() -> None:
    """As a container platform expects: metrics on every interface on an exposed port (set
    in the environment, so that a replaced command keeps them), logs as JSON lines."""
    parsed = _serve_accepts(_dockerfile_json("CMD"), _dockerfile_env())
    assert parsed.metrics_port, "metrics served"
    assert parsed.metrics_host == "0.0.0.0"
    assert parsed.log_format == "json"
    assert _dockerfile_exposed() == {parsed.port, parsed.metrics_port, parsed.web_port}
    # Kubernetes' args replace the CMD: the image's environment alone must serve metrics.
    assert _serve_accepts(["serve"], _dockerfile_env()).metrics_port == parsed.metrics_port
    assert parsed.metrics_port == _named_ports()["metrics"], "the image and the manifest agree"


def test_dockerfile_builds_and_serves_the_web_table() -> None:
    """The page is built in a stage of its own from web/ and proto/ (as `make page` does)
    and served on every interface on an exposed port, set in the environment."""
    text = DOCKERFILE.read_text()
    assert re.search(r"^FROM node:\S+ AS page$", text, re.MULTILINE)
    assert "buf generate" in text and "node build.mjs" in text and "tools/page_css.py" in text
    assert "COPY --from=page /src/referee/server/page/ referee/server/page/" in text
    parsed = _serve_accepts(["serve"], _dockerfile_env())
    assert parsed.web_host == "0.0.0.0" and parsed.web_port == 8080
    assert parsed.web_port == _named_ports()["web"], "the image and the manifest agree"


# --- environment variables --------------------------------------------------------------

BHABHI_NAME = re.compile(r"\bBHABHI_[A-Z0-9_]*")
READS_ENV = re.compile(
    # os.environ.get("BHABHI_X", ...), _env_flag("BHABHI_X"), _option(group, "--x", "BHABHI_X", ...)
    r"""(?:(?:environ\.get|_env_flag)\(\s*|"--[a-z-]+",\s*)["'](BHABHI_[A-Z0-9_]+)["']"""
)


def _env_read_by_serve() -> set[str]:
    names = {n for path in SERVE_SOURCES for n in READS_ENV.findall(path.read_text())}
    assert {"BHABHI_DB", "BHABHI_DRAIN_SECONDS", "BHABHI_METRICS_PORT"} <= names, (
        "READS_ENV no longer finds what bhabhi serve reads"
    )
    return names


def test_deploy_names_only_environment_variables_the_referee_reads() -> None:
    read = _env_read_by_serve()
    texts = [p for p in sorted(DEPLOY.rglob("*")) if p.is_file()] + [DEPLOYMENT_GUIDE]
    for path in texts:
        for name in set(BHABHI_NAME.findall(path.read_text(encoding="utf-8"))):
            if name.endswith("_"):  # a family, such as BHABHI_METRICS_*
                assert any(r.startswith(name) for r in read), f"{path.name}: {name}*"
            else:
                assert name in read, f"{path.name}: bhabhi serve does not read {name}"
    set_here = {n for n in (*_dockerfile_env(), *_container_env()) if n.startswith("BHABHI_")}
    assert set_here <= read
    guide = DEPLOYMENT_GUIDE.read_text(encoding="utf-8")
    assert all(name in guide for name in set_here), "docs/deployment.md names every setting"


# --- Envoy ------------------------------------------------------------------------------


def _envoy() -> dict[str, Any]:
    (config,) = _load(ENVOY)
    assert isinstance(config, dict)
    return config


def _routes() -> list[dict[str, Any]]:
    (listener,) = _envoy()["static_resources"]["listeners"]
    (chain,) = listener["filter_chains"]
    (manager,) = chain["filters"]
    (host,) = manager["typed_config"]["route_config"]["virtual_hosts"]
    routes: list[dict[str, Any]] = host["routes"]
    return routes


def _route_for(path: str) -> dict[str, Any]:
    for route in _routes():
        match = route["match"]
        if match.get("path") == path or path.startswith(match.get("prefix", "\0")):
            action: dict[str, Any] = route["route"]
            return action
    raise AssertionError(f"no route for {path}")


def test_envoy_health_checks_the_referee_over_http2() -> None:
    config = _envoy()
    (listener,) = config["static_resources"]["listeners"]
    assert listener["address"]["socket_address"]["port_value"] == 8080
    (cluster,) = config["static_resources"]["clusters"]
    assert cluster["lb_policy"] == "ROUND_ROBIN"
    options = cluster["typed_extension_protocol_options"]
    (http,) = options.values()
    assert "http2_protocol_options" in http["explicit_http_config"]
    checks = [check["grpc_health_check"] for check in cluster["health_checks"]]
    assert checks and all(check["service_name"] in HEALTH_NAMES - {""} for check in checks)
    endpoints = [
        e["endpoint"]["address"]["socket_address"]
        for group in cluster["load_assignment"]["endpoints"]
        for e in group["lb_endpoints"]
    ]
    assert [(e["address"], e["port_value"]) for e in endpoints] == [
        ("127.0.0.1", port) for port in (50051, 50052, 50053)
    ]


def test_envoy_retries_unavailable_only_for_idempotent_calls() -> None:
    methods = {
        service: [m.name for m in pb.DESCRIPTOR.services_by_name[service].methods]
        for service in SERVICES
    }
    every = {name for names in methods.values() for name in names}
    assert every == IDEMPOTENT | NOT_IDEMPOTENT, "a new RPC: decide whether it is idempotent"
    for service, names in methods.items():
        for name in names:
            route = _route_for(f"/{pb.DESCRIPTOR.package}.{service}/{name}")
            retry_on = set(route.get("retry_policy", {}).get("retry_on", "").split(","))
            repeats = bool(retry_on & {"unavailable", "reset", "5xx", "retriable-status-codes"})
            assert repeats == (name in IDEMPOTENT), f"{service}/{name}: retry_on {retry_on}"
    watch = _route_for(f"/{pb.DESCRIPTOR.package}.PlayService/WatchTable")
    assert watch["timeout"] == "0s", "an event stream must not time out"


# --- documentation ----------------------------------------------------------------------

LINK = re.compile(r"\]\(([^)\s]+)\)")


def _anchor(heading: str) -> str:
    return re.sub(r"[^a-z0-9 _-]", "", heading.strip().lower()).replace(" ", "-")


@pytest.mark.parametrize("doc", ["docs/deployment.md", "deploy/README.md"])
def test_relative_links_resolve(doc: str) -> None:
    path = ROOT / doc
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target):
            continue  # an absolute URL
        file, _, fragment = target.partition("#")
        resolved = (path.parent / file).resolve() if file else path
        assert resolved.exists(), f"{doc}: broken link {target}"
        if fragment:
            headings = re.findall(r"^#+ (.+)$", resolved.read_text(encoding="utf-8"), re.M)
            assert fragment in {_anchor(h) for h in headings}, f"{doc}: no #{fragment}"
