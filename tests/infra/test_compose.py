"""infra/ as an operator runs it: docker-compose.yml's profiles start each platform's gateway only when asked, every
setting a process reads is listed in .env.example, the webhook listens where compose publishes it, every process
serves its metrics where Prometheus scrapes them, each command exists in the `camelot` CLI, and the Grafana dashboard
asks only for metrics the service exports. Read as YAML here (no docker engine on the test machines); also through
`docker compose config`, for each profile, where docker compose is installed."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
import yaml

from service.cli import app
from service.settings import Settings

INFRA = Path(__file__).resolve().parents[2] / "infra"
COMPOSE = yaml.safe_load((INFRA / "docker-compose.yml").read_text())
SERVICES: dict[str, dict[str, Any]] = COMPOSE["services"]
CAMELOT = {name: s for name, s in SERVICES.items() if s.get("command", [None])[0] == "camelot"}
PROFILES = {
    "telegram": {"telegram"},
    "matrix": {"matrix"},
    "monitoring": {"prometheus", "grafana"},
    "tools": {"doctor"},
}
ALWAYS = {"postgres", "redis", "rabbitmq", "migrate", "worker", "beat"}
RUNNING = {"worker", "beat", "telegram", "matrix"}  # the processes that serve /metrics
METRICS_PORT = 9100


def env_example() -> dict[str, str]:
    """The settings .env.example sets (each setting, and nothing else: tests/service/test_cli.py)."""
    found = {}
    for line in (INFRA / ".env.example").read_text().splitlines():
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            found[key] = value
    return found


def compose_variables() -> set[str]:
    """Compose's own variables, described in .env.example as commented lines (`# NAME=value`)."""
    return set(re.findall(r"^# ([A-Z_]+)=", (INFRA / ".env.example").read_text(), re.M))


INTERPOLATION = re.compile(r"\$\{([A-Z_]+)(?::([-?])([^}]*))?\}")  # ${NAME}, ${NAME:-default}, ${NAME:?error}


def interpolated() -> dict[str, str | None]:
    """The variables the compose file takes from .env, with their defaults (None: none, or required)."""
    text = (INFRA / "docker-compose.yml").read_text()
    return {name: default if kind == "-" else None for name, kind, default in INTERPOLATION.findall(text)}


def required() -> set[str]:
    """The variables compose refuses to run without (`${NAME:?why}`)."""
    return {name for name, kind, _ in INTERPOLATION.findall((INFRA / "docker-compose.yml").read_text()) if kind == "?"}


def expand(text: str) -> str:
    """`${NAME:-default}` as compose fills it from an .env copied from .env.example."""
    values = env_example()
    return INTERPOLATION.sub(lambda m: values.get(m[1]) or (m[3] if m[2] == "-" else "") or "", text)


def test_each_profile_starts_its_services_and_only_they_need_one():
    for profile, names in PROFILES.items():
        assert {n for n, s in SERVICES.items() if profile in s.get("profiles", [])} == names, profile
    assert {n for n, s in SERVICES.items() if not s.get("profiles")} == ALWAYS
    assert SERVICES["telegram"]["command"] == ["camelot", "serve", "--telegram"]
    assert SERVICES["matrix"]["command"] == ["camelot", "serve", "--matrix"]


def test_every_setting_and_every_interpolated_variable_is_in_env_example():
    listed = env_example()
    settings = {name.upper() for name in Settings.model_fields}
    assert settings - set(listed) == set()
    assert set(interpolated()) - set(listed) - compose_variables() == set()
    assert compose_variables() - set(interpolated()) == {"COMPOSE_PROFILES"}  # compose reads that one itself
    for name, service in CAMELOT.items():  # what compose sets for a process is a setting it reads
        assert set(service["environment"]) <= settings, name


def test_the_webhook_listens_where_compose_publishes_it():
    telegram = SERVICES["telegram"]
    assert telegram["environment"]["TELEGRAM_WEBHOOK_LISTEN"] == "0.0.0.0"
    [published] = telegram["ports"]
    host, host_port, container_port = expand(published).split(":")
    assert host == "127.0.0.1"  # for the TLS proxy beside it, not the internet
    assert host_port == container_port == env_example()["TELEGRAM_WEBHOOK_PORT"]  # where the gateway listens
    assert interpolated()["TELEGRAM_WEBHOOK_PORT"] == str(Settings.model_fields["telegram_webhook_port"].default)


def test_every_process_serves_its_metrics_where_prometheus_scrapes_and_the_healthcheck_asks():
    scrape = yaml.safe_load((INFRA / "monitoring" / "prometheus.yml").read_text())
    scraped = {
        name: config["port"]
        for job in scrape["scrape_configs"]
        for config in job["dns_sd_configs"]
        for name in config["names"]
    }
    assert scraped == {name: METRICS_PORT for name in RUNNING}
    for name in RUNNING:
        env = CAMELOT[name]["environment"]
        assert (env["METRICS_PORT"], env["METRICS_PORTS"], env["METRICS_LISTEN"]) == (str(METRICS_PORT), "1", "0.0.0.0")
        probe = " ".join(CAMELOT[name]["healthcheck"]["test"])
        assert f"http://127.0.0.1:{METRICS_PORT}/readyz" in probe, name
    for name in ("migrate", "doctor"):  # one-shot commands serve nothing
        assert CAMELOT[name]["healthcheck"] == {"disable": True}


def test_each_command_exists_in_the_cli():
    cli = typer.main.get_command(app)
    for name, service in CAMELOT.items():
        _, command, *args = service["command"]
        assert command in cli.commands, name
        options = {opt for param in cli.commands[command].params for opt in param.opts}
        assert set(args) <= options, (name, args)


def test_the_doctor_runs_before_migrations_and_the_processes_after():
    assert set(SERVICES["doctor"]["depends_on"]) == {"postgres", "redis"}
    for name in RUNNING:
        assert CAMELOT[name]["depends_on"]["migrate"]["condition"] == "service_completed_successfully"


def test_grafana_is_provisioned_with_the_dashboard_whose_metrics_exist():
    grafana = SERVICES["grafana"]
    mounts = {m.split(":")[0]: m.split(":")[1] for m in grafana["volumes"] if m.startswith("./")}
    dashboards = yaml.safe_load((INFRA / "monitoring/grafana/provisioning/dashboards/camelot.yml").read_text())
    assert mounts["./monitoring/grafana/dashboards"] == dashboards["providers"][0]["options"]["path"]
    source = yaml.safe_load((INFRA / "monitoring/grafana/provisioning/datasources/prometheus.yml").read_text())
    assert source["datasources"][0]["url"] == "http://prometheus:9090"
    dashboard = json.loads((INFRA / "monitoring/grafana/dashboards/camelot.json").read_text())
    exprs = [t["expr"] for panel in dashboard["panels"] for t in panel["targets"]]
    uids = {t["datasource"]["uid"] for panel in dashboard["panels"] for t in panel["targets"]}
    assert uids == {source["datasources"][0]["uid"]}
    asked = {re.sub(r"_(total|bucket|count|sum)$", "", m) for e in exprs for m in re.findall(r"camelot_[a-z_]+", e)}
    exported = set(re.findall(r'"(camelot_[a-z_]+)"', _observability_source()))
    assert asked and asked <= exported, asked - exported
    titles = " ".join(p["title"] for p in dashboard["panels"]).lower()
    for wanted in ("moves", "round trip", "refused", "outbox", "429", "queue", "deadlines"):
        assert wanted in titles, wanted


def _observability_source() -> str:
    folder = INFRA.parent / "service" / "observability"
    return "\n".join(path.read_text() for path in sorted(folder.glob("*.py")))


def _docker_compose() -> list[str] | None:
    """`docker compose` (v2), else a standalone `docker-compose` (Debian's 1.29 reads profiles too); None if neither.
    `config` reads and checks the file without an engine."""
    docker = shutil.which("docker")
    if docker and subprocess.run([docker, "compose", "version"], capture_output=True).returncode == 0:
        return [docker, "compose"]
    standalone = shutil.which("docker-compose")
    return [standalone] if standalone else None


@pytest.mark.parametrize("profile", [None, *PROFILES])
def test_docker_compose_config_accepts_each_profile(profile, tmp_path):
    compose = _docker_compose()
    if compose is None:
        pytest.skip("neither docker compose nor docker-compose is installed: the YAML-level tests above stand in")
    infra = tmp_path / "infra"
    shutil.copytree(INFRA, infra)
    example = (infra / ".env.example").read_text()
    (infra / ".env").write_text(example + "".join(f"\n{name}=set-by-the-test" for name in sorted(required())))
    args = [*compose, "-f", str(infra / "docker-compose.yml")]
    if profile:
        args += ["--profile", profile]
    run = subprocess.run([*args, "config", "--services"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0, run.stderr
    assert set(run.stdout.split()) >= ALWAYS | PROFILES.get(profile or "", set())  # (v1 lists every profile's)
    full = subprocess.run([*args, "config"], capture_output=True, text=True, timeout=60)
    assert full.returncode == 0, full.stderr
    if profile == "telegram":
        assert "TELEGRAM_WEBHOOK_LISTEN: 0.0.0.0" in full.stdout
