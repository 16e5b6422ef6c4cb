"""The production worker (tongits_site/serve.py) runs Daphne on uvloop's event loop."""

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

PROBE = """
import tongits_site.serve as serve
assert serve.use_uvloop()
import daphne.server
print(type(daphne.server.twisted_loop).__module__)
"""


def test_daphne_made_its_loop_with_uvloop():
    out = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=REPO, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip().startswith("uvloop")


def test_the_launcher_refuses_once_daphne_has_made_its_loop():
    probe = "import daphne.server\nimport tongits_site.serve as s\ns.main(['--help'])"
    out = subprocess.run([sys.executable, "-c", probe], cwd=REPO, capture_output=True, text=True)
    assert out.returncode != 0
    assert "before Daphne loads" in out.stderr
