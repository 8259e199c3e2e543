"""Every user mistake the robustness pass found is one clear line and exit 2, never a traceback or a hang."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from krosbalance import cli
from krosbalance.content.toml_file import MAX_INPUT_BYTES, read_toml
from krosbalance.errors import ContentError

HEAD = 'name = "x"\nmaster_seed = 1\nmatches_per_pairing = {n}\n{extra}\n[teams]\nmode = "{mode}"\npool = {pool}\n'


def _experiment(
    tmp_path: Path,
    n: int = 1,
    extra: str = "",
    mode: str = "random_deal",
    pool: str = '{ set = "arena-box" }',
) -> Path:
    path = tmp_path / "x.toml"
    path.write_text(HEAD.format(n=n, extra=extra, mode=mode, pool=pool), encoding="utf-8")
    return path


def _one_error_line(capsys: pytest.CaptureFixture[str], *needles: str) -> None:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in captured.err, (
        captured.err
    )
    for needle in needles:
        assert needle in lines[0]


def test_toml_nested_700_deep_is_one_error_in_an_experiment_and_in_a_content_file(
    tmp_path: Path, capsys
) -> None:
    deep = "[" * 700 + "]" * 700
    path = _experiment(tmp_path, extra=f"boards = {deep}")
    # Python's recursion limit decides whether the parser gives up (another test may have raised
    # it): either way, one line naming the file.
    assert cli.main(["validate", str(path)]) == 2
    _one_error_line(capsys, str(path))
    content = tmp_path / "deep.toml"
    content.write_text(f"[characters]\nid = 'x'\nbad = {deep}\n", encoding="utf-8")
    with pytest.raises(ContentError, match=str(content)):
        from krosbalance.content.loader import load_file

        load_file(content)
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(200)
        with pytest.raises(ContentError, match="nested too deeply"):
            read_toml(content)
    finally:
        sys.setrecursionlimit(limit)


def test_a_binary_or_huge_content_file_and_a_device_are_refused(tmp_path: Path) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\x00\xff\xfe\x00 binary")
    with pytest.raises(ContentError, match="not UTF-8"):
        read_toml(binary)
    huge = tmp_path / "huge.toml"
    huge.write_text("# " + "x" * MAX_INPUT_BYTES, encoding="utf-8")
    with pytest.raises(ContentError, match="larger than"):
        read_toml(huge)
    with pytest.raises(ContentError, match="not a regular file"):
        read_toml(Path("/dev/zero"))


def test_validate_dev_zero_is_one_line(capsys) -> None:
    assert cli.main(["validate", "/dev/zero"]) == 2
    _one_error_line(capsys, "not a regular file")


def test_a_trillion_matches_is_refused_by_validate_not_a_memory_error_in_run(tmp_path: Path, capsys) -> None:
    path = _experiment(tmp_path, n=1_000_000_000_000)
    assert cli.main(["validate", str(path)]) == 2
    _one_error_line(capsys, "matches_per_pairing", "at most")
    assert cli.main(["run", str(path), "--out", str(tmp_path / "o"), "--no-progress"]) == 2
    _one_error_line(capsys, "matches_per_pairing")


def test_a_board_listed_twice_is_refused(tmp_path: Path, capsys) -> None:
    path = _experiment(tmp_path, extra='boards = ["arena-elemental", "arena-elemental"]')
    assert cli.main(["validate", str(path)]) == 2
    _one_error_line(capsys, "boards[1]", "listed twice")


def test_a_huge_pool_to_deal_is_refused_quickly(tmp_path: Path, capsys) -> None:
    # Every half of the pool was enumerated: 50 cards took longer than anyone waits.
    pool = "[" + ", ".join(['"bill_tell"'] * 5000) + "]"
    path = _experiment(tmp_path, pool=pool)
    start = time.perf_counter()
    assert cli.main(["validate", str(path)]) == 2
    assert time.perf_counter() - start < 30
    _one_error_line(capsys, "half of the pool")


def test_a_folder_the_run_cannot_write_is_one_line(tmp_path: Path, monkeypatch, capsys) -> None:
    from krosbalance.sim import runner

    def read_only(*args: object, **kwargs: object) -> object:
        raise PermissionError(13, "Permission denied", str(tmp_path / "o" / "manifest.json"))

    monkeypatch.setattr(runner, "run_experiment", read_only)
    assert cli.main(["run", str(_experiment(tmp_path)), "--out", str(tmp_path / "o"), "--resume"]) == 2
    _one_error_line(capsys, "manifest.json", "Permission denied")


def test_a_broken_content_file_is_said_once_not_once_per_name(tmp_path: Path, monkeypatch, capsys) -> None:
    from krosbalance.sim import catalog as catalog_module

    def broken(self: object, name: str) -> str:
        raise ContentError(
            "/content/bill_tell.toml", "characters[0].hp", "expected an integer, got a string 'many'"
        )

    monkeypatch.setattr(catalog_module.RegistryCatalog, "resolve_character", broken)
    path = _experiment(
        tmp_path,
        mode="splits",
        pool='["queen_of_the_tofus", "king_of_the_gobballs", "oscar_kass", "anna_tommy", "bill_tell", "kassius_kaos", "lil_healey", "bad_aboum"]',
    )
    assert cli.main(["validate", str(path)]) == 2
    _one_error_line(capsys, "(content)", "bill_tell.toml", "characters[0].hp")


def test_an_unknown_name_is_still_named_with_its_index(tmp_path: Path, capsys) -> None:
    path = _experiment(tmp_path, mode="splits", pool='["queen_of_the_tofus", "nobody_at_all"]')
    assert cli.main(["validate", str(path)]) == 2
    assert "teams.pool[1]: unknown character 'nobody_at_all'" in capsys.readouterr().err


# ------------------------------------------------- issue 36: a content error names its own file, once
def _blast_card_copy(tmp_path: Path, monkeypatch, damage: bytes) -> Path:
    """The content with one Blast character card's file prefixed by ``damage`` (in a copy)."""
    import shutil

    from krosbalance.content import registry as registry_module
    from krosbalance.content.registry import DEFAULT_CHARACTER_FOLDERS, Registry
    from krosbalance.sim import catalog

    copy = tmp_path / "blast-characters"
    shutil.copytree(DEFAULT_CHARACTER_FOLDERS[1], copy)
    card = copy / "arielle_fleche.toml"
    card.write_bytes(damage + card.read_bytes())
    monkeypatch.setattr(registry_module, "_DEFAULT", Registry(DEFAULT_CHARACTER_FOLDERS[0], copy))
    catalog.arm_ruleset.cache_clear()  # rulesets built on the shipped cards (cleared again after)
    return card


@pytest.fixture
def fresh_rules():
    from krosbalance.sim import catalog

    yield
    catalog.arm_ruleset.cache_clear()


@pytest.mark.parametrize("command", ["validate", "run"])
def test_a_broken_blast_card_is_named_once_not_blamed_on_the_options(
    tmp_path: Path, monkeypatch, capsys, fresh_rules, command: str
) -> None:
    """Issue 36: a Blast card that does not load printed ``options.toml: Invalid statement`` (the
    ContentError re-labelled as an [options] field, the card's file dropped), once per arm."""
    card = _blast_card_copy(tmp_path, monkeypatch, b"= oops\n")
    experiment = Path(__file__).resolve().parents[1] / "simulations" / "blast-challenges.toml"
    args = [command, str(experiment)] + (["--out", str(tmp_path / "out")] if command == "run" else [])
    assert cli.main(args) == 2
    _one_error_line(capsys, "(content): the content does not load: ", f"{card}: toml: Invalid statement")
    assert not (tmp_path / "out").exists()


def test_a_byte_order_mark_is_read_as_the_utf8_text_it_marks(
    tmp_path: Path, monkeypatch, capsys, fresh_rules
) -> None:
    """A file saved with a UTF-8 byte-order mark (Notepad) is read as if it had none: the mark is
    invisible in an editor and tomllib refused it as "Invalid statement (at line 1, column 1)"."""
    from krosbalance.content.toml_file import read_toml_text

    marked = tmp_path / "marked.toml"
    marked.write_bytes(b"\xef\xbb\xbfa = 1\n")
    assert read_toml_text(marked) == "a = 1\n" and read_toml(marked) == {"a": 1}
    _blast_card_copy(tmp_path, monkeypatch, b"\xef\xbb\xbf")
    experiment = tmp_path / "x.toml"
    shipped = Path(__file__).resolve().parents[1] / "simulations" / "smoke.toml"
    experiment.write_bytes(b"\xef\xbb\xbf" + shipped.read_bytes())
    assert cli.main(["validate", str(experiment)]) == 0, capsys.readouterr().err
    from krosbalance.content.registry import default_registry

    assert default_registry().load_character("arielle_fleche").id == "arielle_fleche"
