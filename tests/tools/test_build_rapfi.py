"""scripts/build-rapfi, with stand-ins for cmake and g++ on PATH: what it asks for and what it leaves in OUT."""

import os
import subprocess
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "build-rapfi"

# The example config's shape: a [model] section with its own model, the neural evaluator's sections after it.
EXAMPLE = """\
[general]
default_thread_num = 1
[model]
# The classical model
binary_file = "model210901.bin"
[model.evaluator]
type = "mix9svq"
[[model.evaluator.weights]]
weight_file = "mix9svqfreestyle_bsmix.bin.lz4"
[search]
max_search_depth = 99
"""

# cmake as the script calls it: configuring does nothing; building leaves a binary where cmake would.
FAKE_CMAKE = """\
#!/bin/sh
if [ "$1" = "--build" ]; then mkdir -p "$2"; printf '#!/bin/sh\\n' >"$2/pbrain-rapfi"; chmod +x "$2/pbrain-rapfi"; fi
echo "$@" >>"$CMAKE_LOG"
"""


@pytest.fixture
def folders(tmp_path):
    """A Rapfi source folder, a networks folder and a PATH with the stand-in tools."""
    source = tmp_path / "rapfi"
    (source / "Rapfi").mkdir(parents=True)
    (source / "Rapfi" / "CMakeLists.txt").write_text("project(rapfi)\n")
    networks = tmp_path / "rapfi-networks"
    (networks / "classical").mkdir(parents=True)
    (networks / "classical" / "model220723.bin").write_bytes(b"model")
    (networks / "config-example").mkdir()
    (networks / "config-example" / "config.toml").write_text(EXAMPLE)
    tools = tmp_path / "bin"
    tools.mkdir()
    for name, text in (("cmake", FAKE_CMAKE), ("g++", "#!/bin/sh\n")):
        (tools / name).write_text(text)
        (tools / name).chmod(0o755)
    return source, networks, tools


def build(*args, tools=None, cwd=None):
    environment = os.environ | {"CMAKE_LOG": str(cwd / "cmake.log")} if cwd else dict(os.environ)
    if tools:
        environment["PATH"] = f"{tools}{os.pathsep}{environment['PATH']}"
    return subprocess.run(
        ["bash", str(SCRIPT), *map(str, args)], capture_output=True, text=True, env=environment, cwd=cwd, timeout=30
    )


def test_it_builds_into_out_with_a_config_that_loads_only_the_classical_model(folders, tmp_path):
    source, networks, tools = folders
    out = tmp_path / "out"
    done = build(source, networks, out, tools=tools, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert (out / "pbrain-rapfi").exists()
    assert (out / "model220723.bin").read_bytes() == b"model"
    config = (out / "config.toml").read_text()
    assert 'binary_file = "model220723.bin"' in config
    assert "model210901" not in config and "evaluator" not in config and "mix9svq" not in config
    assert "default_thread_num = 1" in config and "max_search_depth = 99" in config
    calls = (tmp_path / "cmake.log").read_text()
    assert "-DCMAKE_BUILD_TYPE=Release" in calls and "--build" in calls
    assert f"RAPFI={out}/pbrain-rapfi" in done.stdout


@pytest.mark.parametrize("count", [0, 1, 4])
def test_without_its_two_folders_it_shows_how_to_call_it(count, tmp_path):
    done = build(*[tmp_path] * count)
    assert done.returncode == 2
    assert "scripts/build-rapfi RAPFI_SOURCE NETWORKS [OUT]" in done.stdout


def test_a_folder_that_is_not_a_checkout_is_named(folders, tmp_path):
    source, networks, tools = folders
    not_source = build(networks, networks, tools=tools, cwd=tmp_path)
    assert not_source.returncode == 2 and "dhbloo/rapfi" in not_source.stderr
    not_networks = build(source, source, tools=tools, cwd=tmp_path)
    assert not_networks.returncode == 2 and "dhbloo/rapfi-networks" in not_networks.stderr
    assert not (tmp_path / "artifacts").exists()
